/** The StatefulSet `db` (one postgres replica) the ControllerRevision tests apply in namespace `ns`. */
export const statefulSet = (ns: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: ${ns}
spec:
  replicas: 1
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: postgres:16.4
`;

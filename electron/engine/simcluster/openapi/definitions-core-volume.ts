/**
 * core/v1 Volume with the sources the simulated cluster's workloads use: configMap, secret,
 * emptyDir, persistentVolumeClaim, hostPath, downwardAPI and projected (service account tokens).
 */
import { ATOMIC, CORE, LABEL_SELECTOR, QUANTITY, arr, bool, int, int64, kind, map, obj, ref, str, strs, type Schema } from './schema.ts';

const DEFAULT_MODE =
  'Optional: mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. Defaults to 0644.';

function keyToPathItems(what: string): Schema {
  return arr(
    ref(`${CORE}KeyToPath`),
    `items if unspecified, each key-value pair in the Data field of the referenced ${what} will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present.`,
    ATOMIC,
  );
}

function volumeSources(): Record<string, Schema> {
  return {
    configMap: ref(`${CORE}ConfigMapVolumeSource`, 'configMap represents a configMap that should populate this volume'),
    downwardAPI: ref(`${CORE}DownwardAPIVolumeSource`, 'downwardAPI represents downward API about the pod that should populate this volume'),
    emptyDir: ref(
      `${CORE}EmptyDirVolumeSource`,
      "emptyDir represents a temporary directory that shares a pod's lifetime. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir",
    ),
    hostPath: ref(
      `${CORE}HostPathVolumeSource`,
      'hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container. This is generally used for system agents or other privileged things that are allowed to see the host machine. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath',
    ),
    persistentVolumeClaim: ref(
      `${CORE}PersistentVolumeClaimVolumeSource`,
      'persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims',
    ),
    projected: ref(`${CORE}ProjectedVolumeSource`, 'projected items for all in one resources secrets, configmaps, and downward API'),
    secret: ref(`${CORE}SecretVolumeSource`, 'secret represents a secret that should populate this volume. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret'),
  };
}

function sourceDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}ConfigMapVolumeSource`]: obj(
      "Adapts a ConfigMap into a volume. The contents of the target ConfigMap's Data field will be presented in a volume as files using the keys in the Data field as the file names, unless the items element is populated with specific mappings of keys to paths.",
      {
        defaultMode: int(DEFAULT_MODE),
        items: keyToPathItems('ConfigMap'),
        name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
        optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
      },
    ),
    [`${CORE}SecretVolumeSource`]: obj(
      "Adapts a Secret into a volume. The contents of the target Secret's Data field will be presented in a volume as files using the keys in the Data field as the file names.",
      {
        defaultMode: int(DEFAULT_MODE),
        items: keyToPathItems('Secret'),
        optional: bool('optional field specify whether the Secret or its keys must be defined'),
        secretName: str("secretName is the name of the secret in the pod's namespace to use. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret"),
      },
    ),
    [`${CORE}EmptyDirVolumeSource`]: obj('Represents an empty directory for a pod. Empty directory volumes support ownership management and SELinux relabeling.', {
      medium: str(
        'medium represents what type of storage medium should back this directory. The default is "" which means to use the node\'s default medium. Must be an empty string (default) or Memory. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir',
      ),
      sizeLimit: ref(
        QUANTITY,
        'sizeLimit is the total amount of local storage required for this EmptyDir volume. The size limit is also applicable for memory medium. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir',
      ),
    }),
    [`${CORE}HostPathVolumeSource`]: obj(
      'Represents a host path mapped into a pod. Host path volumes do not support ownership management or SELinux relabeling.',
      {
        path: str('path of the directory on the host. If the path is a symlink, it will follow the link to the real path. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath'),
        type: str('type for HostPath Volume Defaults to "" More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath'),
      },
      { required: ['path'] },
    ),
    [`${CORE}PersistentVolumeClaimVolumeSource`]: obj(
      "PersistentVolumeClaimVolumeSource references the user's PVC in the same namespace. This volume finds the bound PV and mounts that volume for the pod.",
      {
        claimName: str(
          'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims',
        ),
        readOnly: bool('readOnly Will force the ReadOnly setting in VolumeMounts. Default false.'),
      },
      { required: ['claimName'] },
    ),
    [`${CORE}KeyToPath`]: obj(
      'Maps a string key to a path within a volume.',
      {
        key: str('key is the key to project.'),
        mode: int('mode is Optional: mode bits used to set permissions on this file. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511.'),
        path: str("path is the relative path of the file to map the key to. May not be an absolute path. May not contain the path element '..'. May not start with the string '..'."),
      },
      { required: ['key', 'path'] },
    ),
  };
}

function projectionDefinitions(): Record<string, Schema> {
  const downwardItems = arr(ref(`${CORE}DownwardAPIVolumeFile`), 'Items is a list of DownwardAPIVolume file', ATOMIC);
  return {
    [`${CORE}DownwardAPIVolumeSource`]: obj('DownwardAPIVolumeSource represents a volume containing downward API info. Downward API volumes support ownership management and SELinux relabeling.', {
      defaultMode: int(DEFAULT_MODE),
      items: downwardItems,
    }),
    [`${CORE}DownwardAPIVolumeFile`]: obj(
      'DownwardAPIVolumeFile represents information to create the file containing the pod field',
      {
        fieldRef: ref(`${CORE}ObjectFieldSelector`, 'Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported.'),
        mode: int('Optional: mode bits used to set permissions on this file, must be an octal value between 0000 and 0777 or a decimal value between 0 and 511.'),
        path: str("Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path."),
        resourceFieldRef: ref(`${CORE}ResourceFieldSelector`, 'Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, requests.cpu and requests.memory) are currently supported.'),
      },
      { required: ['path'] },
    ),
    [`${CORE}ProjectedVolumeSource`]: obj('Represents a projected volume source', {
      defaultMode: int(DEFAULT_MODE),
      sources: arr(ref(`${CORE}VolumeProjection`), 'sources is the list of volume projections. Each entry in this list handles one source.', ATOMIC),
    }),
    [`${CORE}VolumeProjection`]: obj('Projection that may be projected along with other supported volume types. Exactly one of these fields must be set.', {
      configMap: ref(`${CORE}ConfigMapProjection`, 'configMap information about the configMap data to project'),
      downwardAPI: ref(`${CORE}DownwardAPIProjection`, 'downwardAPI information about the downwardAPI data to project'),
      secret: ref(`${CORE}SecretProjection`, 'secret information about the secret data to project'),
      serviceAccountToken: ref(`${CORE}ServiceAccountTokenProjection`, 'serviceAccountToken is information about the serviceAccountToken data to project'),
    }),
    [`${CORE}ConfigMapProjection`]: obj('Adapts a ConfigMap into a projected volume.', {
      items: keyToPathItems('ConfigMap'),
      name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
      optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
    }),
    [`${CORE}SecretProjection`]: obj('Adapts a secret into a projected volume.', {
      items: keyToPathItems('Secret'),
      name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
      optional: bool('optional field specify whether the Secret or its key must be defined'),
    }),
    [`${CORE}DownwardAPIProjection`]: obj('Represents downward API info for projecting into a projected volume.', { items: downwardItems }),
    [`${CORE}ServiceAccountTokenProjection`]: obj(
      'ServiceAccountTokenProjection represents a projected service account token volume. This projection can be used to insert a service account token into the pods runtime filesystem for use against APIs (Kubernetes API Server or otherwise).',
      {
        audience: str('audience is the intended audience of the token. A recipient of a token must identify itself with an identifier specified in the audience of the token, and otherwise should reject the token.'),
        expirationSeconds: int64('expirationSeconds is the requested duration of validity of the service account token. Defaults to 1 hour and must be at least 10 minutes.'),
        path: str('path is the path relative to the mount point of the file to project the token into.'),
      },
      { required: ['path'] },
    ),
  };
}

function claimDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}PersistentVolumeClaim`]: kind({ group: '', kind: 'PersistentVolumeClaim', version: 'v1' }, "PersistentVolumeClaim is a user's request for and claim to a persistent volume", {
      spec: ref(`${CORE}PersistentVolumeClaimSpec`, 'spec defines the desired characteristics of a volume requested by a pod author. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims'),
      status: ref(`${CORE}PersistentVolumeClaimStatus`, 'status represents the current information/status of a persistent volume claim. Read-only.'),
    }),
    [`${CORE}PersistentVolumeClaimSpec`]: obj('PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes', {
      accessModes: strs('accessModes contains the desired access modes the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1', ATOMIC),
      resources: ref(`${CORE}VolumeResourceRequirements`, 'resources represents the minimum resources the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#resources'),
      selector: ref(LABEL_SELECTOR, 'selector is a label query over volumes to consider for binding.'),
      storageClassName: str('storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1'),
      volumeMode: str('volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', { enum: ['Block', 'Filesystem'] }),
      volumeName: str('volumeName is the binding reference to the PersistentVolume backing this claim.'),
    }),
    [`${CORE}PersistentVolumeClaimStatus`]: obj('PersistentVolumeClaimStatus is the current status of a persistent volume claim.', {
      accessModes: strs('accessModes contains the actual access modes the volume backing the PVC has.', ATOMIC),
      capacity: map('capacity represents the actual resources of the underlying volume.', ref(QUANTITY)),
      phase: str('phase represents the current phase of PersistentVolumeClaim.', { enum: ['Bound', 'Lost', 'Pending'] }),
    }),
    [`${CORE}VolumeResourceRequirements`]: obj('VolumeResourceRequirements describes the storage resource requirements for a volume.', {
      limits: map('Limits describes the maximum amount of compute resources allowed.', ref(QUANTITY)),
      requests: map('Requests describes the minimum amount of compute resources required.', ref(QUANTITY)),
    }),
  };
}

/** Volume, the volume sources it offers, and the PersistentVolumeClaim StatefulSets template. */
export function volumeDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Volume`]: obj(
      'Volume represents a named volume in a pod that may be accessed by any container in the pod.',
      {
        name: str(
          "name of the volume. Must be a DNS_LABEL and unique within the pod. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        ),
        ...volumeSources(),
      },
      { required: ['name'] },
    ),
    ...sourceDefinitions(),
    ...projectionDefinitions(),
    ...claimDefinitions(),
  };
}

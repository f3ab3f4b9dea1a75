/**
 * The swagger 2.0 parameters kube-apiserver declares on its REST operations. kubectl reads
 * them: it only sends `dryRun`/`fieldValidation` to a server whose PATCH operation for the
 * kind declares them.
 */
import { META, ref, type Schema } from './schema.ts';

/** A swagger 2.0 parameter: query/path parameters are typed inline, the body one by schema. */
export interface Parameter {
  name: string;
  in: 'body' | 'path' | 'query';
  description?: string;
  required?: boolean;
  type?: 'boolean' | 'integer' | 'string';
  uniqueItems?: boolean;
  schema?: Schema;
}

function query(name: string, type: 'boolean' | 'integer' | 'string', description: string): Parameter {
  return { uniqueItems: true, type, description, name, in: 'query' };
}

export const PRETTY = query('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).");

export function pathParameter(name: 'name' | 'namespace', kind: string): Parameter {
  const description = name === 'name' ? `name of the ${kind}` : 'object name and auth scope, such as for teams and projects';
  return { uniqueItems: true, type: 'string', description, name, in: 'path', required: true };
}

export function body(definition: string): Parameter {
  return { name: 'body', in: 'body', required: true, schema: ref(definition) };
}

const RESOURCE_VERSION_DETAILS = 'See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset';

export const ALLOW_WATCH_BOOKMARKS = query(
  'allowWatchBookmarks',
  'boolean',
  'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
);
export const CONTINUE = query(
  'continue',
  'string',
  'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token.',
);
export const FIELD_SELECTOR = query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.');
export const LABEL_SELECTOR_PARAM = query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.');
export const LIMIT = query(
  'limit',
  'integer',
  'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available.',
);
export const RESOURCE_VERSION = query(
  'resourceVersion',
  'string',
  `resourceVersion sets a constraint on what resource versions a request may be served from. ${RESOURCE_VERSION_DETAILS}`,
);
export const RESOURCE_VERSION_MATCH = query(
  'resourceVersionMatch',
  'string',
  `resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set. ${RESOURCE_VERSION_DETAILS}`,
);
export const SEND_INITIAL_EVENTS = query(
  'sendInitialEvents',
  'boolean',
  '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation.',
);
export const TIMEOUT_SECONDS = query('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.');
export const WATCH = query(
  'watch',
  'boolean',
  'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.',
);

export const DRY_RUN = query(
  'dryRun',
  'string',
  'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
);
export const FIELD_MANAGER = query(
  'fieldManager',
  'string',
  'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
);
export const FIELD_VALIDATION = query(
  'fieldValidation',
  'string',
  'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
);
export const FORCE = query(
  'force',
  'boolean',
  'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
);
export const GRACE_PERIOD_SECONDS = query(
  'gracePeriodSeconds',
  'integer',
  'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
);
export const ORPHAN_DEPENDENTS = query(
  'orphanDependents',
  'boolean',
  'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
);
export const PROPAGATION_POLICY = query(
  'propagationPolicy',
  'string',
  "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
);

/** Query parameters of list and watch operations, alphabetical as upstream. */
export const LIST_PARAMETERS: readonly Parameter[] = [
  ALLOW_WATCH_BOOKMARKS,
  CONTINUE,
  FIELD_SELECTOR,
  LABEL_SELECTOR_PARAM,
  LIMIT,
  RESOURCE_VERSION,
  RESOURCE_VERSION_MATCH,
  SEND_INITIAL_EVENTS,
  TIMEOUT_SECONDS,
  WATCH,
];

/** Query parameters of POST and PUT. */
export const WRITE_PARAMETERS: readonly Parameter[] = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];

/** Query parameters of PATCH (apply needs `force`). */
export const PATCH_PARAMETERS: readonly Parameter[] = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE];

/** Query parameters of DELETE on one object. */
export const DELETE_PARAMETERS: readonly Parameter[] = [DRY_RUN, GRACE_PERIOD_SECONDS, ORPHAN_DEPENDENTS, PROPAGATION_POLICY];

/** Query parameters of DELETE on a collection: the delete options plus the list selectors. */
export const DELETE_COLLECTION_PARAMETERS: readonly Parameter[] = [
  CONTINUE,
  DRY_RUN,
  FIELD_SELECTOR,
  GRACE_PERIOD_SECONDS,
  LABEL_SELECTOR_PARAM,
  LIMIT,
  ORPHAN_DEPENDENTS,
  PROPAGATION_POLICY,
  RESOURCE_VERSION,
  RESOURCE_VERSION_MATCH,
  SEND_INITIAL_EVENTS,
  TIMEOUT_SECONDS,
];

export const DELETE_OPTIONS = `${META}DeleteOptions`;
export const PATCH_BODY = `${META}Patch`;
export const STATUS = `${META}Status`;
export const WATCH_EVENT = `${META}WatchEvent`;

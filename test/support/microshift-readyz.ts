// What test/fixtures/cluster/control-plane/readyz-microshift-failed.txt (a MicroShift /readyz
// answered with HTTP 500 while starting; its README says where it came from) holds: the
// checks it marks failed ([-]), in the document's order. Read by the unit test of the parser
// and by the end-to-end test of check_apiserver, so that both judge the same list.
export const MICROSHIFT_READYZ_FAILED = [
  'api-openshift-apiserver-available',
  'api-openshift-oauth-apiserver-available',
  'informer-sync',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
] as const;

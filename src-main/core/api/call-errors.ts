// Errors of the contract, raised where a call is answered (the service, a file's worker) and
// mapped by each transport (HTTP 400 / 404, IPC rejection).

/** A renderer call whose arguments are not what the contract says: rejected before any work. */
export class BadCallError extends Error {}

/** A call that names a file or row that is not there: a 404, not a crash. */
export class NotFoundError extends Error {}

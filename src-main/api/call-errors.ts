/** A renderer call whose arguments are not what the contract says: rejected before any work. */
export class BadCallError extends Error {}

/** A call that names a file or row that is not there: a 404, not a crash. */
export class NotFoundError extends Error {}

/** Why a data store cannot be opened, in one line (the server prints it and does not start). */
export class DataStoreRefusal extends Error {
  override readonly name = 'DataStoreRefusal';
}

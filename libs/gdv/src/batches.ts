/** The items of arrays handed over one array at a time, one by one. */
export async function* flatten<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

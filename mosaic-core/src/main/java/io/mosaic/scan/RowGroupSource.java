package io.mosaic.scan;

import io.mosaic.segment.DecodedChunk;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.arrow.vector.FieldVector;

/**
 * Where a {@link Scan}'s row groups come from: each call of {@link #take} hands out the next
 * complete row group of the {@link ScanState}, as raw checked chunks (chunk mode) or decoded
 * vectors. One implementation per way of reading: {@link ReadAhead} reads the scan's own chunks (in
 * row-group order, or over a scheduled cold device in the order the device serves them), and {@link
 * SharedReads} takes whichever row group the shared buffer has loaded (cooperative scans,
 * docs/cooperative-scans.md).
 */
interface RowGroupSource {
  /**
   * One row group handed out: {@code chunks} in chunk mode, {@code decoded} (one per column, in the
   * request's order) in vector mode.
   *
   * @param index the row group's position in the scan's row groups, -1 where the source does not
   *     need it back
   */
  record Taken(int index, int group, RowGroupChunks chunks, List<DecodedChunk> decoded) {}

  /**
   * Whether a row group is left. {@code mayWait} (vector mode): a source may wait to know, where a
   * narrowing predicate may rule out all that remain; chunk mode must not wait, and may answer true
   * once more before {@link #take} returns null.
   */
  boolean hasNext(boolean mayWait);

  /**
   * Chunk mode: a future done when {@link #take} will not wait (or the scan failed, or none is
   * left); not done, the caller asks again once it is. Issues reads if none are under way.
   */
  CompletableFuture<?> ready();

  /**
   * The next complete row group, waiting for it; releases the chunks of the one taken before in
   * chunk mode. Null when none is left (a narrowing predicate ruled out the rest).
   */
  Taken take() throws InterruptedException, ExecutionException;

  /** Whether every row group has been taken or ruled out, as far as known without waiting. */
  boolean exhausted();

  /** Vector mode: the consumer is done with {@code vectors}, those of {@code taken}. */
  void release(Taken taken, List<FieldVector> vectors);

  /** Bytes of raw chunks the source holds for this scan. */
  long heldBytes();

  ScanStats stats(long start);

  /** Stops issuing reads, before the consumer's last vectors are released. */
  void stop();

  /** Frees every buffer the source holds, after reads under way have stopped. */
  void close();
}

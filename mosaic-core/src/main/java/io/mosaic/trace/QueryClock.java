package io.mosaic.trace;

import io.mosaic.table.MosaicTable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Times the engines' queries for the trace: an engine tells when a query begins and ends (Trino's
 * {@code beginQuery} and {@code cleanupQuery}, Spark's SQL execution events), a scan plan tells
 * which tables the query scans, and at the end the query's time goes to each of those tables'
 * traces ({@link TraceLog#appendQuery}), beside its scans' records. A prediction of the query's
 * time then adds the time its scans do not explain (docs/cost-model.md, "Predicted query time").
 *
 * <p>One clock per JVM, where the engine plans its scans (Trino's coordinator, Spark's driver).
 * Queries that never end (an engine killed mid-way) are forgotten oldest first beyond {@value
 * #MAX_RUNNING}.
 */
public final class QueryClock {
  static final int MAX_RUNNING = 10_000;

  private static final QueryClock JVM = new QueryClock();

  private final Map<String, Running> running = new LinkedHashMap<>();

  QueryClock() {}

  private static final class Running {
    long startMillis = UNKNOWN;
    final Map<String, TraceLog> traces = new LinkedHashMap<>();
  }

  /** A query seen scanning before its engine said it began (Spark's events arrive late). */
  private static final long UNKNOWN = Long.MIN_VALUE;

  /** The clock of this JVM, which the engines and scan plans share. */
  public static QueryClock jvm() {
    return JVM;
  }

  /**
   * Query {@code queryId} began at {@code startMillis} (epoch milliseconds); a repeat is ignored.
   */
  public synchronized void begin(String queryId, long startMillis) {
    Running q = running(queryId);
    if (q.startMillis == UNKNOWN) {
      q.startMillis = startMillis;
    }
  }

  /**
   * Query {@code queryId} scans {@code table}. The scan may be planned before the engine's news of
   * the query's beginning arrives; a query whose beginning never arrives (a scan outside an engine
   * query) is never timed.
   */
  public synchronized void scans(String queryId, MosaicTable table) {
    TraceLog trace = TraceLog.of(table);
    running(queryId).traces.putIfAbsent(trace.where(), trace);
  }

  private Running running(String queryId) {
    Running q = running.computeIfAbsent(queryId, k -> new Running());
    for (Iterator<String> it = running.keySet().iterator(); running.size() > MAX_RUNNING; ) {
      it.next();
      it.remove();
    }
    return q;
  }

  /**
   * Query {@code queryId} ended at {@code endMillis}: its time is appended to the trace of every
   * table it scanned. A trace that cannot be written is skipped: a query's time is a hint for
   * prediction, never a reason to fail the query.
   */
  public void end(String queryId, long endMillis) {
    Running q;
    synchronized (this) {
      q = running.remove(queryId);
    }
    if (q == null || q.startMillis == UNKNOWN) {
      return;
    }
    for (TraceLog trace : q.traces.values()) {
      try {
        trace.appendQuery(queryId, endMillis - q.startMillis);
      } catch (RuntimeException e) {
        // The table was dropped, or its trace's storage failed: the scans' records stand alone.
      }
    }
  }

  /** How many queries are running (begun, not ended): for tests. */
  synchronized int running() {
    return running.size();
  }
}

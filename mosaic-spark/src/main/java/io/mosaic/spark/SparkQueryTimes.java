package io.mosaic.spark;

import io.mosaic.trace.QueryClock;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;

/**
 * Tells core's {@link QueryClock} when Spark's SQL executions begin and end, under the query ids
 * Mosaic's scans carry ({@link #queryId}), so each query's own time reaches the traces of the
 * tables it scanned (docs/cost-model.md, "Predicted query time"). Registered on the driver's
 * SparkContext once, when a catalog or the data source first resolves a table, which is before the
 * query that resolves it starts executing.
 */
final class SparkQueryTimes extends SparkListener {
  private static final Set<SparkContext> REGISTERED =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private final String applicationId;

  private SparkQueryTimes(String applicationId) {
    this.applicationId = applicationId;
  }

  /** Registers the listener on the active session's SparkContext, once per context. */
  static void register() {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    if (session != null && REGISTERED.add(session.sparkContext())) {
      SparkContext sc = session.sparkContext();
      sc.addSparkListener(new SparkQueryTimes(sc.applicationId()));
    }
  }

  /**
   * The query id of SQL execution {@code executionId} of application {@code applicationId}: the
   * execution ids restart in every application, and one table's trace holds many.
   */
  static String queryId(String executionId, String applicationId) {
    return "spark-execution-" + executionId + "@" + applicationId;
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof SparkListenerSQLExecutionStart start) {
      QueryClock.jvm()
          .begin(queryId(String.valueOf(start.executionId()), applicationId), start.time());
    } else if (event instanceof SparkListenerSQLExecutionEnd end) {
      QueryClock.jvm().end(queryId(String.valueOf(end.executionId()), applicationId), end.time());
    }
  }
}

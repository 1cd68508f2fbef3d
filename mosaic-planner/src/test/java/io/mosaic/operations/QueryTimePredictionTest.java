package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan's prediction as whole queries (docs/cost-model.md, "Predicted query time"): the timed
 * queries' measured time now, and under the plan the predicted scans plus the time the queries
 * spent outside their scans at the placement they were measured at.
 */
class QueryTimePredictionTest {
  @TempDir Path dir;

  @Test
  void aPlanAddsTheQueriesTimeOutsideTheirScansToItsPredictedScans() throws Exception {
    DevicePool pool = CalibratedModels.nvmeAndHddPool(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"),
            pool,
            CrashWorkload.SCHEMA,
            Map.of(TableProperties.DEFAULT_DEVICE, "hdd", TableProperties.ROW_GROUP_ROWS, "2000"));
    CrashWorkload.append(table, 0);
    CrashWorkload.append(table, 1);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));
    PlaceRequest request = PlaceRequest.builder("t").strategy("lopt").build();

    // Scans outside engine queries: no query time, so none predicted.
    scan(pool, table, "cli-1");
    PlaceResult untimed = executor.place(request);
    assertThat(untimed.measuredQuerySeconds()).isNaN();
    assertThat(untimed.predictedQuerySecondsAfter()).isNaN();
    assertThat(untimed.rows().get(0)).containsSequence(null, null);

    // Two engine queries of 3 s each (one scanned twice), and the CLI's scan beside them.
    scan(pool, table, "q1");
    scan(pool, table, "q2");
    scan(pool, table, "q2");
    TraceLog log = TraceLog.of(table);
    log.appendQuery("q1", 3_000);
    log.appendQuery("q2", 3_000);
    log.appendQuery("q9", 60_000); // a query with no scan of this table does not count
    PlaceResult r = executor.place(request);
    assertThat(r.measuredQuerySeconds()).isCloseTo(6.0, within(1e-9));
    // Now: 4 scans predicted at predictedSecondsBefore; 3 of them in timed queries.
    double nonScan = 6.0 - r.predictedSecondsBefore() * 3 / 4;
    assertThat(r.predictedQuerySecondsAfter())
        .isCloseTo(r.predictedSecondsAfter() + nonScan, within(1e-9));
    // The plan moves the read columns off the HDD: the queries get faster by what the scans gain.
    assertThat(r.predictedSecondsAfter()).isLessThan(r.predictedSecondsBefore());
    assertThat(r.predictedQuerySecondsAfter()).isLessThan(6.0 + r.predictedSecondsBefore() / 4);
  }

  private static void scan(DevicePool pool, MosaicTable table, String queryId) {
    try (Retriever retriever = new Retriever(pool);
        Scan scan = retriever.scan(table, ScanRequest.of(List.of("k", "v")).queryId(queryId))) {
      while (scan.hasNext()) {
        scan.next();
      }
    }
  }
}

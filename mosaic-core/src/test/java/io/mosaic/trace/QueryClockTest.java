package io.mosaic.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine query's own time goes to the trace of every table it scanned, once, whichever order the
 * engine's news and the scan plans arrive in; read back, it is no scan (docs/cost-model.md,
 * "Predicted query time").
 */
class QueryClockTest {
  @TempDir Path dir;

  @Test
  void aQuerysTimeGoesToEachTableItScannedAndIsNoScan() throws IOException {
    DevicePool pool = TableFixtures.fourDevices(dir);
    MosaicTable a = CrashWorkload.table(dir.resolve("a"), pool, 1);
    MosaicTable b = CrashWorkload.table(dir.resolve("b"), pool, 1);
    MosaicTable c = CrashWorkload.table(dir.resolve("c"), pool, 1);
    QueryClock clock = new QueryClock();
    TraceLog.of(a)
        .append(
            new TraceRecord(
                "q1", "a", List.of("id"), List.of(0), Map.of("ssd", 10L), 5, Instant.now()));

    clock.begin("q1", 1_000);
    clock.scans("q1", a);
    clock.scans("q1", b);
    clock.scans("q1", a); // a second scan of the same table: one line
    // Spark's news of a query's beginning may come after its scans were planned.
    clock.scans("q2", b);
    clock.begin("q2", 2_000);
    clock.begin("q2", 9_999); // a repeat changes nothing
    // A scan outside any engine query, and a query that never scanned: never timed.
    clock.scans("cli", c);
    clock.end("cli", 3_000);
    clock.begin("q3", 1_000);
    clock.end("q1", 1_250);
    clock.end("q2", 2_700);
    clock.end("q3", 1_100);
    clock.end("q1", 9_000); // ended once already

    TraceLog logA = TraceLog.of(a);
    TraceLog logB = TraceLog.of(b);
    assertThat(logA.queryMillis(logA.epoch())).containsExactly(Map.entry("q1", 250L));
    assertThat(logB.queryMillis(logB.epoch()))
        .containsExactly(Map.entry("q1", 250L), Map.entry("q2", 700L));
    TraceLog logC = TraceLog.of(c);
    assertThat(logC.queryMillis(logC.epoch())).isEmpty();
    // The scan records read as before; the query lines are not among them.
    assertThat(logA.read(logA.epoch())).extracting(TraceRecord::queryId).containsExactly("q1");
    assertThat(logB.read(logB.epoch())).isEmpty();
    assertThat(clock.running()).isZero();
  }

  @Test
  void queriesThatNeverEndAreForgottenOldestFirst() {
    QueryClock clock = new QueryClock();
    for (int i = 0; i < QueryClock.MAX_RUNNING + 5; i++) {
      clock.begin("q" + i, i);
    }
    assertThat(clock.running()).isEqualTo(QueryClock.MAX_RUNNING);
  }
}

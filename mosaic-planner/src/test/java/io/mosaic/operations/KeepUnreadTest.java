package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The target maintain runs to: LOPT's, with the columns no scan reads left where they fit. */
class KeepUnreadTest {
  private static final long GB = 1_000_000_000L;

  private static DeviceProfile device(String id, double gbPerSecond, long capacity) {
    Bandwidth rate = new Bandwidth(gbPerSecond * GB);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1.0, capacity, Cost.ofCents(10));
  }

  private static ColumnRef col(String name) {
    return new ColumnRef("t", name);
  }

  // fast holds 2 GB: hot (1 GB, scanned) comes in, and of the unread small (0.6 GB) and big
  // (0.8 GB) on it now only one can stay. LOPT moved both to slow; keeping both would overfill
  // fast, which before meant taking LOPT's target whole.
  @Test
  void asManyUnreadColumnsStayAsTheDevicesHoldLargestFirst() {
    CostModel model =
        CostModel.of(
            List.of(device("fast", 2, 2 * GB), device("slow", 0.1, 100 * GB)),
            List.of(
                new ColumnSize(col("hot"), GB, Map.of()),
                new ColumnSize(col("small"), 600_000_000L, Map.of()),
                new ColumnSize(col("big"), 800_000_000L, Map.of()),
                new ColumnSize(col("elsewhere"), GB, Map.of())));
    Workload w = new Workload(List.of(new DistinctScan(Set.of(col("hot")), 1)));
    Placement current =
        new Placement(
            Map.of(
                col("hot"), "slow",
                col("small"), "fast",
                col("big"), "fast",
                col("elsewhere"), "slow"));
    Placement lopt =
        new Placement(
            Map.of(
                col("hot"), "fast",
                col("small"), "slow",
                col("big"), "slow",
                col("elsewhere"), "fast"));
    Placement target = MaintenanceExecutor.keepUnread(model, w, current, lopt);
    assertThat(target.deviceOf())
        .containsEntry(col("hot"), "fast")
        .containsEntry(col("big"), "fast")
        .containsEntry(col("small"), "slow")
        .containsEntry(col("elsewhere"), "slow");
  }
}

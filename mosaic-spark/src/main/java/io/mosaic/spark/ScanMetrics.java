package io.mosaic.spark;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.scan.ScanStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.util.Utils;

/**
 * The custom metrics a Mosaic scan shows in the Spark UI (SQL tab, on the scan's node): bytes read
 * from each device of the pool, row groups read, and row groups skipped by statistics. Tasks report
 * their values ({@link #values}); the driver sums them.
 */
final class ScanMetrics {
  static final String BYTES_READ = "bytesRead.";
  static final String ROW_GROUPS_READ = "rowGroupsRead";
  static final String ROW_GROUPS_SKIPPED = "rowGroupsSkipped";
  static final String CHUNKS_READ = "chunksRead";
  static final String CHUNKS_SHARED = "chunksShared";

  private ScanMetrics() {}

  /**
   * Bytes a scan read from one device, summed over tasks. Spark's UI rebuilds the class by name to
   * aggregate, hence public with a no-argument constructor.
   */
  public static final class DeviceBytesRead extends CustomSumMetric {
    private final String device;

    public DeviceBytesRead() {
      this("?");
    }

    DeviceBytesRead(String device) {
      this.device = device;
    }

    @Override
    public String name() {
      return BYTES_READ + device;
    }

    @Override
    public String description() {
      return "bytes read from device " + device;
    }

    @Override
    public String aggregateTaskMetrics(long[] taskMetrics) {
      return Utils.bytesToString(Arrays.stream(taskMetrics).sum());
    }
  }

  /** A count of row groups, summed over tasks (and the driver, for those skipped at planning). */
  public static final class RowGroups extends CustomSumMetric {
    private final String name;
    private final String description;

    public RowGroups() {
      this("?", "?");
    }

    RowGroups(String name, String description) {
      this.name = name;
      this.description = description;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return description;
    }
  }

  /** One task's value of one metric. */
  record Value(String name, long value) implements CustomTaskMetric {}

  /** The metrics of a scan over {@code pool}: one per device, then the row-group counts. */
  static CustomMetric[] supported(DevicePool pool) {
    List<CustomMetric> metrics = new ArrayList<>();
    for (Device d : pool.devices()) {
      metrics.add(new DeviceBytesRead(d.id()));
    }
    metrics.add(new RowGroups(ROW_GROUPS_READ, "row groups read"));
    metrics.add(new RowGroups(ROW_GROUPS_SKIPPED, "row groups skipped by statistics"));
    // Cooperative scans (docs/cooperative-scans.md): chunks the devices read for the scan, and
    // chunks it got from
    // the executor's shared buffer as another scan's load.
    metrics.add(new RowGroups(CHUNKS_READ, "column chunks read"));
    metrics.add(new RowGroups(CHUNKS_SHARED, "column chunks from the shared scan buffer"));
    return metrics.toArray(new CustomMetric[0]);
  }

  /** A task's values so far: what {@code stats} says, on top of {@code base} (same order). */
  static CustomTaskMetric[] values(DevicePool pool, ScanStats stats, int read, long[] base) {
    List<Device> devices = pool.devices();
    CustomTaskMetric[] values = new CustomTaskMetric[devices.size() + 4];
    for (int i = 0; i < devices.size(); i++) {
      String id = devices.get(i).id();
      values[i] = new Value(BYTES_READ + id, base[i] + stats.bytesPerDevice().getOrDefault(id, 0L));
    }
    int n = devices.size();
    values[n] = new Value(ROW_GROUPS_READ, base[n] + read);
    values[n + 1] = new Value(ROW_GROUPS_SKIPPED, base[n + 1] + stats.rowGroupsSkipped());
    values[n + 2] = new Value(CHUNKS_READ, base[n + 2] + stats.chunksRead());
    values[n + 3] = new Value(CHUNKS_SHARED, base[n + 3] + stats.chunksShared());
    return values;
  }

  /** The values a previous reader of the same task reported, by name, in this scan's order. */
  static long[] base(DevicePool pool, CustomTaskMetric[] previous) {
    CustomMetric[] supported = supported(pool);
    long[] base = new long[supported.length];
    for (CustomTaskMetric m : previous) {
      for (int i = 0; i < supported.length; i++) {
        if (supported[i].name().equals(m.name())) {
          base[i] = m.value();
        }
      }
    }
    return base;
  }
}

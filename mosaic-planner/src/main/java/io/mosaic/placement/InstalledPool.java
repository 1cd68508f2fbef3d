package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceColumns;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.mosaic.workload.RangeUnits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cost model's inputs read off an installed pool and its tables (capacity mode, paper Section
 * 3.4): calibrated devices, real column sizes, the recorded trace, the current placement.
 */
public final class InstalledPool {
  private InstalledPool() {}

  /** The pool's devices with their calibrated models (Eq. 1), or what to run to get them. */
  public static List<DeviceProfile> profiles(DevicePool pool) throws IOException {
    Map<String, DeviceModel> models;
    try {
      models = DeviceModelFile.read(pool.modelFile());
    } catch (DeviceConfigException e) {
      throw new MosaicException(
          MosaicException.Kind.INVALID_ARGUMENT,
          "no usable device model for "
              + pool.configFile()
              + ": "
              + e.getMessage().strip()
              + "; calibrate the devices of "
              + pool.configFile()
              + " first (docs/configuration.md)",
          e);
    }
    List<DeviceProfile> profiles = new ArrayList<>();
    for (Device d : pool.devices()) {
      DeviceModel m = models.get(d.id());
      if (m == null) {
        throw MosaicException.invalid(
            "device '"
                + d.id()
                + "' has no entry in "
                + pool.modelFile()
                + "; calibrate device '"
                + d.id()
                + "' of "
                + pool.configFile()
                + " (docs/configuration.md)");
      }
      profiles.add(DeviceProfile.installed(d.spec(), m));
    }
    return profiles;
  }

  /**
   * The cost model of the pool's tables: calibrated devices, real sizes, and the host's processors
   * when calibration measured them (docs/cost-model.md).
   */
  public static CostModel model(DevicePool pool, List<MosaicTable> tables) throws IOException {
    return modelOf(pool, sizes(tables));
  }

  /** As {@link #model(DevicePool, List)} for other placement units' sizes (row ranges). */
  public static CostModel modelOf(DevicePool pool, List<ColumnSize> sizes) throws IOException {
    return CostModel.of(profiles(pool), sizes, DeviceModelFile.readCpu(pool.modelFile()));
  }

  /**
   * Real sizes: uncompressed bytes, the stored bytes of a codec all its segments use, and the
   * values and their kind (for the decoding rates by kind, docs/cost-model.md).
   */
  public static List<ColumnSize> sizes(List<MosaicTable> tables) {
    List<ColumnSize> sizes = new ArrayList<>();
    for (MosaicTable table : tables) {
      Manifest m = table.latest();
      for (ColumnSpec c : m.schema().columns()) {
        List<SegmentEntry> segments = m.segmentsOf(c.name());
        long raw = segments.stream().mapToLong(SegmentEntry::uncompressedBytes).sum();
        Set<Codec> codecs = new LinkedHashSet<>();
        segments.forEach(s -> codecs.add(s.codec()));
        Map<Codec, Long> stored = new EnumMap<>(Codec.class);
        if (codecs.size() == 1) {
          stored.put(
              codecs.iterator().next(),
              segments.stream().mapToLong(SegmentEntry::compressedBytes).sum());
        }
        sizes.add(
            new ColumnSize(
                new ColumnRef(table.name(), c.name()),
                Math.max(raw, 1),
                stored,
                m.rowCount(),
                c.type().isVariableWidth()));
      }
    }
    return sizes;
  }

  /** The scans recorded in the tables' current trace epochs. */
  public static Workload workload(List<MosaicTable> tables) {
    List<DistinctScan> scans = new ArrayList<>();
    for (MosaicTable table : tables) {
      TraceLog log = TraceLog.of(table);
      for (TraceRecord r : TraceColumns.current(table, log.read(log.epoch()))) {
        Set<ColumnRef> columns = new LinkedHashSet<>();
        r.columns().forEach(c -> columns.add(new ColumnRef(table.name(), c)));
        if (!columns.isEmpty()) {
          scans.add(new DistinctScan(columns, 1));
        }
      }
    }
    if (scans.isEmpty()) {
      throw MosaicException.invalid(
          "no scans recorded in the current trace epoch of "
              + tables
              + "; run the workload first (every scan is recorded), then place");
    }
    return Workload.merging(scans);
  }

  /**
   * The engine queries timed in the tables' current trace epochs ({@code TraceLog#appendQuery}):
   * their measured seconds in all, how many, and their scans, the part of the workload whose
   * queries' time is known (docs/cost-model.md, "Predicted query time").
   */
  public record QueryTimes(double seconds, int queries, Workload scans) {
    /**
     * The seconds of these queries that their scans, as {@code model} predicts them at {@code
     * current} (the placement they were measured at), do not explain: the queries' time outside Eq.
     * 3, which a prediction at another placement adds unchanged.
     */
    public double nonScanSeconds(CostModel model, Placement current) {
      return seconds - model.totalTime(scans, current);
    }
  }

  /**
   * The queries timed in the tables' current trace epochs and their scans; empty when no query with
   * a scan of these tables was timed (scans outside engine queries, traces of older engines). A
   * query that scanned several tables is counted once.
   */
  public static Optional<QueryTimes> queryTimes(List<MosaicTable> tables) {
    Map<String, Long> millis = new LinkedHashMap<>();
    List<TraceRecord> scanned = new ArrayList<>();
    List<String> tableOf = new ArrayList<>();
    for (MosaicTable table : tables) {
      TraceLog log = TraceLog.of(table);
      int epoch = log.epoch();
      log.queryMillis(epoch).forEach((id, ms) -> millis.merge(id, ms, Math::max));
      for (TraceRecord r : TraceColumns.current(table, log.read(epoch))) {
        scanned.add(r);
        tableOf.add(table.name());
      }
    }
    List<DistinctScan> scans = new ArrayList<>();
    Set<String> timed = new LinkedHashSet<>();
    for (int i = 0; i < scanned.size(); i++) {
      TraceRecord r = scanned.get(i);
      if (millis.containsKey(r.queryId()) && !r.columns().isEmpty()) {
        Set<ColumnRef> columns = new LinkedHashSet<>();
        String table = tableOf.get(i);
        r.columns().forEach(c -> columns.add(new ColumnRef(table, c)));
        scans.add(new DistinctScan(columns, 1));
        timed.add(r.queryId());
      }
    }
    if (scans.isEmpty()) {
      return Optional.empty();
    }
    double seconds = timed.stream().mapToLong(millis::get).sum() / 1000.0;
    return Optional.of(new QueryTimes(seconds, timed.size(), Workload.merging(scans)));
  }

  /** Where each column lives now (its last segment's device). */
  public static Placement currentPlacement(DevicePool pool, List<MosaicTable> tables) {
    Map<ColumnRef, String> now = new LinkedHashMap<>();
    for (MosaicTable table : tables) {
      Manifest m = table.latest();
      for (ColumnSpec c : m.schema().columns()) {
        List<SegmentEntry> segments = m.segmentsOf(c.name());
        String device =
            segments.isEmpty()
                ? pool.devices().get(0).id()
                : segments.get(segments.size() - 1).device();
        now.put(new ColumnRef(table.name(), c.name()), device);
      }
    }
    return new Placement(now);
  }

  /**
   * The tables as placement units below their columns (docs/row-ranges.md): units from the row
   * groups the current epoch's scans read, the units' sizes, the workload over them, and where each
   * unit lives now.
   *
   * @param units each unit by the cost model's name for it ({@code column[from:to]})
   */
  public record Ranges(
      Map<ColumnRef, RangeUnits.Unit> units,
      List<ColumnSize> sizes,
      Workload workload,
      Placement current) {}

  /**
   * Splits the tables' columns into units. A unit's bytes are its segments' bytes shared among the
   * segments' row groups by their rows (segments record bytes per segment, not per row group); a
   * unit lives now where the segment holding its first row group lives.
   */
  public static Ranges ranges(List<MosaicTable> tables) {
    Map<ColumnRef, RangeUnits.Unit> units = new LinkedHashMap<>();
    List<ColumnSize> sizes = new ArrayList<>();
    List<DistinctScan> scans = new ArrayList<>();
    Map<ColumnRef, String> current = new LinkedHashMap<>();
    for (MosaicTable table : tables) {
      Manifest m = table.latest();
      int groups = m.rowGroups().size();
      Map<String, RangeUnits.RowGroupSizes> bytes = new LinkedHashMap<>();
      for (ColumnSpec c : m.schema().columns()) {
        bytes.put(c.name(), rowGroupSizes(m, c.name(), groups));
      }
      TraceLog log = TraceLog.of(table);
      List<RangeUnits.RangeScan> recorded = new ArrayList<>();
      for (TraceRecord r : TraceColumns.current(table, log.read(log.epoch()))) {
        Set<Integer> read = new HashSet<>();
        // Row groups appended after the scan, or of a version it did not read, are not its reads.
        r.rowGroups().stream().filter(g -> g >= 0 && g < groups).forEach(read::add);
        if (!r.columns().isEmpty() && !read.isEmpty()) {
          recorded.add(new RangeUnits.RangeScan(table.name(), new HashSet<>(r.columns()), read, 1));
        }
      }
      RangeUnits.Split split = RangeUnits.split(table.name(), bytes, recorded);
      for (RangeUnits.Unit u : split.units()) {
        units.put(u.ref(), u);
        current.put(u.ref(), m.segmentFor(u.column().column(), u.from()).device());
      }
      sizes.addAll(split.sizes());
      scans.addAll(split.workload().scans());
    }
    if (scans.isEmpty()) {
      throw MosaicException.invalid(
          "no scans with row groups recorded in the current trace epoch of "
              + tables.stream().map(MosaicTable::name).toList()
              + "; run the workload first (every scan is recorded), then place");
    }
    return new Ranges(units, sizes, Workload.merging(scans), new Placement(current));
  }

  /**
   * A column's bytes per row group as {@link #ranges} counts them: its segments' bytes shared among
   * their row groups by rows.
   */
  public static RangeUnits.RowGroupSizes rowGroupSizes(Manifest m, String column, int groups) {
    long[] raw = new long[groups];
    Set<Codec> codecs = new LinkedHashSet<>();
    long[] stored = new long[groups];
    for (SegmentEntry s : m.segmentsOf(column)) {
      codecs.add(s.codec());
      long rows = 0;
      for (int g = s.firstRowGroup(); g < s.firstRowGroup() + s.rowGroupCount(); g++) {
        rows += m.rowGroups().get(g);
      }
      for (int g = s.firstRowGroup(); g < s.firstRowGroup() + s.rowGroupCount(); g++) {
        double share = rows == 0 ? 1.0 / s.rowGroupCount() : (double) m.rowGroups().get(g) / rows;
        raw[g] = Math.max(1, Math.round(s.uncompressedBytes() * share));
        stored[g] = Math.round(s.compressedBytes() * share);
      }
    }
    // As for whole columns: a stored size only when all segments share one codec.
    Map<Codec, long[]> byCodec =
        codecs.size() == 1 ? Map.of(codecs.iterator().next(), stored) : Map.of();
    return new RangeUnits.RowGroupSizes(raw, byCodec);
  }
}

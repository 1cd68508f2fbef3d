package io.mosaic.model;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Link;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The scan cost model of paper Section 4.1 (Eq. 2-5): predicts how long a workload's table scans
 * take, and what storage costs, under a placement. Pure arithmetic; strategies and the CLI share
 * it, so every prediction Mosaic prints comes from here.
 *
 * <p>With a {@link CpuModel} it is Mosaic's extension of Eq. 3 (docs/cost-model.md): a scan takes
 * the slowest device's I/O time or its processors' decoding time, whichever is larger, plus a fixed
 * cost per scan. Without one it is the paper's model as published. A cold device (a {@link
 * DeviceProfile#cold} one) adds its expected group switches to its I/O time in each scan that reads
 * it (docs/cost-model.md, "Cold devices").
 *
 * @param devices the device pool, in the order reports list it
 * @param sizes the size of every column that must be stored, scanned or not
 * @param cpu the host's calibrated processors, if known
 * @param monthlyReads how often a month each column is read, for the prices per request and per GB
 *     retrieved of object stores ({@link DeviceProfile#access}, docs/cost-model.md, "Money per
 *     month"); a column not listed is never read. Empty unless {@link #withMonthlyReads} filled it:
 *     then Eq. 5's storage cost is the whole cost, as in the paper
 */
public record CostModel(
    List<DeviceProfile> devices,
    Map<ColumnRef, ColumnSize> sizes,
    Optional<CpuModel> cpu,
    Map<ColumnRef, Double> monthlyReads) {
  private static final double BYTES_PER_GB = 1e9;

  /** The paper's model: scan time from the devices alone. */
  public CostModel(List<DeviceProfile> devices, Map<ColumnRef, ColumnSize> sizes) {
    this(devices, sizes, Optional.empty());
  }

  /** A model whose costs are storage alone (Eq. 5), with the host's processors or not. */
  public CostModel(
      List<DeviceProfile> devices, Map<ColumnRef, ColumnSize> sizes, Optional<CpuModel> cpu) {
    this(devices, sizes, cpu, Map.of());
  }

  public CostModel {
    Objects.requireNonNull(cpu, "cpu");
    monthlyReads.forEach(
        (column, reads) -> {
          if (!(reads >= 0) || Double.isInfinite(reads)) {
            throw MosaicException.invalid(
                "column " + column + " is read " + reads + " times a month; give 0 or more");
          }
        });
    monthlyReads = Collections.unmodifiableSortedMap(new TreeMap<>(monthlyReads));
    devices = List.copyOf(devices);
    if (devices.isEmpty()) {
      throw MosaicException.invalid("the cost model needs at least one device");
    }
    Map<String, DeviceProfile> byId = new LinkedHashMap<>();
    Map<String, DeviceProfile> onLink = new LinkedHashMap<>();
    for (DeviceProfile d : devices) {
      if (byId.put(d.id(), d) != null) {
        throw MosaicException.invalid("device '" + d.id() + "' is listed twice");
      }
      if (d.link().isPresent()) {
        Link link = d.link().get();
        DeviceProfile first = onLink.putIfAbsent(link.id(), d);
        if (first != null && !first.link().get().equals(link)) {
          throw MosaicException.invalid(
              "devices '"
                  + first.id()
                  + "' and '"
                  + d.id()
                  + "' share link '"
                  + link.id()
                  + "' at different rates ("
                  + first.link().get().read()
                  + " and "
                  + link.read()
                  + "); a link has one rate: give both the same [[link]], or name another link");
        }
      }
    }
    sizes.forEach(
        (column, size) -> {
          if (!column.equals(size.column())) {
            throw MosaicException.invalid(
                "size of " + size.column() + " given for column " + column);
          }
        });
    sizes = Collections.unmodifiableSortedMap(new TreeMap<>(sizes));
  }

  public static CostModel of(List<DeviceProfile> devices, Collection<ColumnSize> sizes) {
    return of(devices, sizes, Optional.empty());
  }

  public static CostModel of(
      List<DeviceProfile> devices, Collection<ColumnSize> sizes, Optional<CpuModel> cpu) {
    return new CostModel(
        devices,
        sizes.stream().collect(Collectors.toMap(ColumnSize::column, Function.identity())),
        cpu);
  }

  /** The same devices and columns with the host's processors modelled (or not). */
  public CostModel withCpu(Optional<CpuModel> model) {
    return new CostModel(devices, sizes, model, monthlyReads);
  }

  /**
   * The same model charging each column's reads as {@code workload} runs {@code runsPerMonth} times
   * a month: a scan of weight {@code w} reads each of its columns (one GET request per column
   * chunk, Eq. 2's {@code t_seek}) {@code w * runsPerMonth} times. Only devices with {@link
   * DeviceProfile#access} prices charge for them (docs/cost-model.md, "Money per month").
   */
  public CostModel withMonthlyReads(Workload workload, double runsPerMonth) {
    if (!(runsPerMonth >= 0) || Double.isInfinite(runsPerMonth)) {
      throw MosaicException.invalid(
          "the trace must run 0 or more times a month, not " + runsPerMonth);
    }
    Map<ColumnRef, Double> reads = new TreeMap<>();
    for (DistinctScan scan : workload.scans()) {
      for (ColumnRef column : scan.columns()) {
        reads.merge(column, scan.weight() * runsPerMonth, Double::sum);
      }
    }
    return new CostModel(devices, sizes, cpu, reads);
  }

  /** How often a month {@code column} is read: 0 unless {@link #withMonthlyReads} says. */
  public double monthlyReads(ColumnRef column) {
    return monthlyReads.getOrDefault(column, 0.0);
  }

  /** Every column that must be stored, in table.column order. */
  public List<ColumnRef> columns() {
    return List.copyOf(sizes.keySet());
  }

  public DeviceProfile device(String id) {
    for (DeviceProfile d : devices) {
      if (d.id().equals(id)) {
        return d;
      }
    }
    throw MosaicException.notFound("unknown device '" + id + "'; devices: " + deviceIds());
  }

  public boolean hasDevice(String id) {
    return devices.stream().anyMatch(d -> d.id().equals(id));
  }

  /** The size of a column the trace names; a clear error if the trace and the tables disagree. */
  public ColumnSize size(ColumnRef column) {
    ColumnSize size = sizes.get(column);
    if (size == null) {
      throw MosaicException.notFound("trace names unknown column " + column + "; " + known(column));
    }
    return size;
  }

  /** Checks that every column the workload scans has a size. */
  public void validate(Workload workload) {
    for (DistinctScan scan : workload.scans()) {
      scan.sortedColumns().forEach(this::size);
    }
  }

  /**
   * Bytes {@code column} takes on {@code device}: the real size when the column has been stored
   * with the device's codec, else the estimate {@code size(c) / cr(d)} of Eq. 2 ({@code size(c)}
   * itself for {@code none}).
   */
  public long storedBytes(DeviceProfile device, ColumnRef column) {
    ColumnSize size = size(column);
    return size.stored(device.codec())
        .orElseGet(
            () ->
                device.codec() == Codec.NONE
                    ? size.bytes()
                    : Math.round(size.bytes() / device.ratio()));
  }

  /**
   * Eq. 2, the seconds to scan {@code column} on {@code device}: {@code t_seek + size(c) / (cr(d) *
   * t(d))}, written as {@code seek + max(stored / raw, size / effective)}. The first term is Eq. 2
   * when reading is I/O-bound (with the real stored size when known); the second caps the rate by
   * the measured decompression speed, since a device cannot deliver uncompressed data faster than
   * the reader decompresses it (paper Figure 3d measures throughput per codec for this reason).
   *
   * <p>With a CPU model the device's part is its I/O alone, {@code seek + stored / raw}: decoding
   * runs on processors every device shares, so it is {@link #cpuTime}, summed over the scan.
   */
  public double columnTime(DeviceProfile device, ColumnRef column) {
    double io = device.raw().secondsFor(storedBytes(device, column));
    if (cpu.isPresent()) {
      return device.seek().seconds() + io;
    }
    double decompress = device.effective().secondsFor(size(column).bytes());
    return device.seek().seconds() + Math.max(io, decompress);
  }

  /**
   * The seconds the scan's cores spend decompressing and decoding {@code column} stored with {@code
   * device}'s codec: {@code size(c) / (decode(codec(d)) * cores)}, by the kind of its values where
   * calibration measured rates by kind ({@link CpuModel#seconds(Codec, long, long, boolean)}); 0
   * without a CPU model.
   */
  public double cpuTime(DeviceProfile device, ColumnRef column) {
    ColumnSize size = size(column);
    return cpu.map(
            m -> m.seconds(device.codec(), size.bytes(), size.values(), size.variableWidth()))
        .orElse(0.0);
  }

  /**
   * The links the devices share ({@link DeviceProfile#link}), each once, in pool order: paths to
   * the host that bound what a scan reads from all their devices together.
   */
  public List<Link> links() {
    return devices.stream().flatMap(d -> d.link().stream()).distinct().toList();
  }

  /**
   * The seconds {@code column} stored on {@code device} takes of its link: its stored bytes over
   * the link's rate ({@code size(c) / (cr(d) * t(l))}, docs/cost-model.md, "Shared links"); 0 for a
   * device on no link. A link carries bytes, so there is no seek in it: each device waits for its
   * own first bytes.
   */
  public double linkTime(DeviceProfile device, ColumnRef column) {
    return device.link().map(l -> l.read().secondsFor(storedBytes(device, column))).orElse(0.0);
  }

  /** The fixed seconds of every scan, however little it reads; 0 without a CPU model. */
  public double scanFixedTime() {
    return cpu.map(m -> m.scanFixed().seconds()).orElse(0.0);
  }

  /**
   * Eq. 3: a scan's time is the slowest device's sum of column times, since columns on different
   * devices are read in parallel; devices that share a link ({@link #links}) are read in parallel
   * only up to its rate, so the slowest may also be a link, with the bytes of every column on its
   * devices ({@link #linkTime}, docs/cost-model.md, "Shared links"). With a CPU model, Mosaic's
   * extension ({@link #scanSeconds}): the slowest device's I/O and the decoding of every column as
   * a two-stage pipeline, plus the fixed cost (docs/cost-model.md).
   */
  public double scanTime(DistinctScan scan, Placement placement) {
    return scanTime(scan, column -> deviceOf(placement, column));
  }

  /**
   * Eq. 3 with each column on the device {@code deviceOf} gives it: for a placement being changed,
   * without building a {@link Placement} per move tried.
   */
  public double scanTime(DistinctScan scan, Function<ColumnRef, DeviceProfile> deviceOf) {
    List<ColumnRef> columns = new ArrayList<>(scan.sortedColumns());
    double[][] shares = RowRange.shares(columns);
    int ranges = shares == null ? 1 : shares[0].length;
    List<Map<String, Double>> perDevice = new ArrayList<>();
    // A link's share of each range beside the devices': Eq. 3's max runs over both.
    List<Map<String, Double>> perLink = new ArrayList<>();
    for (int r = 0; r < ranges; r++) {
      perDevice.add(new LinkedHashMap<>());
      perLink.add(new LinkedHashMap<>());
    }
    double decoding = 0;
    Map<DeviceProfile, Integer> onCold = new LinkedHashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      ColumnRef column = columns.get(c);
      size(column);
      DeviceProfile device = deviceOf.apply(column);
      if (device.isCold()) {
        onCold.merge(device, 1, Integer::sum);
      }
      double time = columnTime(device, column);
      double onLink = linkTime(device, column);
      for (int r = 0; r < ranges; r++) {
        double share = shares == null ? 1 : shares[c][r];
        if (share > 0) {
          perDevice.get(r).merge(device.id(), time * share, Double::sum);
          if (device.link().isPresent()) {
            perLink.get(r).merge(device.link().get().id(), onLink * share, Double::sum);
          }
        }
      }
      decoding += cpuTime(device, column);
    }
    // A cold device's expected group switches (docs/cost-model.md, "Cold devices"): part of its
    // I/O time, as it serves nothing while a group spins up; with several row ranges, added to
    // the scan's I/O after them (not overlapped with the other devices' reading).
    double switching = 0;
    for (Map.Entry<DeviceProfile, Integer> e : onCold.entrySet()) {
      double seconds = switchSeconds(e.getKey(), e.getValue());
      if (ranges == 1) {
        perDevice.get(0).merge(e.getKey().id(), seconds, Double::sum);
      } else {
        switching += seconds;
      }
    }
    // Eq. 3 per range of rows; row ranges of units (RowRange) are read one after another.
    double io = switching;
    for (int r = 0; r < ranges; r++) {
      double devicesMax =
          perDevice.get(r).values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
      double linksMax =
          perLink.get(r).values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
      io += Math.max(devicesMax, linksMax);
    }
    return scanSeconds(io, decoding, scan.columns().size(), scanFixedTime());
  }

  /**
   * The seconds a scan reading {@code units} columns (or row-range units) of {@code device} spends
   * waiting for group switches: {@code s * E(k)} with {@code E(k) = G (1 - (1 - 1/G)^k)} the groups
   * it expects to visit, each once under the group scheduler (Skipper Section 4.4; {@link
   * ColdSpec#expectedSwitches}); 0 on a warm device or for no units.
   */
  public static double switchSeconds(DeviceProfile device, int units) {
    return device.cold().map(c -> c.switchSeconds(units)).orElse(0.0);
  }

  /** The group switches a scan expects on every cold device together ({@link #switchSeconds}). */
  public double expectedSwitches(DistinctScan scan, Function<ColumnRef, DeviceProfile> deviceOf) {
    Map<DeviceProfile, Integer> onCold = new LinkedHashMap<>();
    for (ColumnRef column : scan.sortedColumns()) {
      DeviceProfile device = deviceOf.apply(column);
      if (device.isCold()) {
        onCold.merge(device, 1, Integer::sum);
      }
    }
    double switches = 0;
    for (Map.Entry<DeviceProfile, Integer> e : onCold.entrySet()) {
      switches += e.getKey().cold().orElseThrow().expectedSwitches(e.getValue());
    }
    return switches;
  }

  /**
   * Mosaic's Eq. 3 from its parts (docs/cost-model.md): the read-decode pipeline of a scan whose
   * data arrives in {@code chunks} pieces takes {@code max(io + cpu / n, cpu + io / n) + f}. The
   * slower stage bounds it, and the faster one is exposed for one piece: the first read before any
   * decoding, or the last decoding after every read. One piece per column read (a row group per
   * column at most 1M rows); without a CPU model ({@code cpu = f = 0}) it is the paper's Eq. 3.
   */
  public static double scanSeconds(double io, double cpu, int chunks, double fixed) {
    return Math.max(io + cpu / chunks, cpu + io / chunks) + fixed;
  }

  /** Eq. 4, weighted: {@code sum over distinct scans T of weight(T) * t(T)}. */
  public double totalTime(Workload workload, Placement placement) {
    double total = 0;
    for (DistinctScan scan : workload.scans()) {
      total += scan.weight() * scanTime(scan, placement);
    }
    return total;
  }

  /**
   * Eq. 5, in cents: {@code sum over columns of cost(d) * size(c) / cr(d)}, prices per GB; with
   * monthly reads ({@link #withMonthlyReads}) each column's requests and retrieval too ({@link
   * #cents}).
   */
  public double cost(Placement placement) {
    checkComplete(placement);
    double cents = 0;
    for (ColumnRef column : sizes.keySet()) {
      DeviceProfile device = deviceOf(placement, column);
      cents += cents(device, column);
    }
    return cents;
  }

  /**
   * Eq. 5's term for one column, in cents: what storing {@code column} on {@code device} costs,
   * plus, on an object store, what its reads a month cost ({@link #accessCents}). Linear in where
   * the column goes, so LOPT's budget constraint (Eq. 8) stays linear.
   */
  public double cents(DeviceProfile device, ColumnRef column) {
    return storageCents(device, column) + accessCents(device, column);
  }

  /** Eq. 5 as the paper has it: the price per GB (per GB-month) times the stored GB. */
  public double storageCents(DeviceProfile device, ColumnRef column) {
    return device.costPerGb().cents() * storedBytes(device, column) / BYTES_PER_GB;
  }

  /** What reading {@code column} from {@code device} costs a month: requests plus retrieval. */
  public double accessCents(DeviceProfile device, ColumnRef column) {
    return requestCents(device, column) + retrievalCents(device, column);
  }

  /** A month's GET requests for {@code column} on {@code device}: one per read, times the price. */
  public double requestCents(DeviceProfile device, ColumnRef column) {
    double reads = monthlyReads(column);
    return reads == 0 ? 0 : reads * device.access().centsPerRequest();
  }

  /** A month's retrieval of {@code column} from {@code device}: its stored GB per read. */
  public double retrievalCents(DeviceProfile device, ColumnRef column) {
    double reads = monthlyReads(column);
    return reads == 0
        ? 0
        : reads
            * device.access().perGbRetrieved().cents()
            * storedBytes(device, column)
            / BYTES_PER_GB;
  }

  /** What a placement costs, in cents, by what is paid for (budget mode's cost, Eq. 5 extended). */
  public record Charges(double storageCents, double requestCents, double retrievalCents) {
    public double totalCents() {
      return storageCents + requestCents + retrievalCents;
    }
  }

  /** {@link #cost} split into storage, requests and retrieval. */
  public Charges charges(Placement placement) {
    checkComplete(placement);
    double storage = 0;
    double requests = 0;
    double retrieval = 0;
    for (ColumnRef column : sizes.keySet()) {
      DeviceProfile device = deviceOf(placement, column);
      storage += storageCents(device, column);
      requests += requestCents(device, column);
      retrieval += retrievalCents(device, column);
    }
    return new Charges(storage, requests, retrieval);
  }

  /** Stored bytes per device (the left side of Eq. 7), every device listed in pool order. */
  public Map<String, Long> usedBytes(Placement placement) {
    checkComplete(placement);
    Map<String, Long> used = new LinkedHashMap<>();
    devices.forEach(d -> used.put(d.id(), 0L));
    for (ColumnRef column : sizes.keySet()) {
      DeviceProfile device = deviceOf(placement, column);
      used.merge(device.id(), storedBytes(device, column), Math::addExact);
    }
    return used;
  }

  /** Everything the model says about a placement under a workload. */
  public Prediction predict(Workload workload, Placement placement) {
    checkComplete(placement);
    List<Double> perScan = new ArrayList<>();
    double total = 0;
    double switches = 0;
    for (DistinctScan scan : workload.scans()) {
      double t = scanTime(scan, placement);
      perScan.add(t);
      total += scan.weight() * t;
      switches += scan.weight() * expectedSwitches(scan, c -> deviceOf(placement, c));
    }
    return new Prediction(total, perScan, cost(placement), usedBytes(placement), switches);
  }

  /** Eq. 6a: a placement must put every stored column on exactly one known device. */
  public void checkComplete(Placement placement) {
    for (ColumnRef column : sizes.keySet()) {
      deviceOf(placement, column);
    }
    for (ColumnRef column : placement.deviceOf().keySet()) {
      if (!sizes.containsKey(column)) {
        throw MosaicException.notFound(
            "placement places unknown column " + column + "; " + known(column));
      }
    }
  }

  private DeviceProfile deviceOf(Placement placement, ColumnRef column) {
    String id = placement.deviceOf().get(column);
    if (id == null) {
      throw MosaicException.invalid("placement does not place column " + column);
    }
    if (!hasDevice(id)) {
      throw MosaicException.notFound(
          "placement puts " + column + " on unknown device '" + id + "'; devices: " + deviceIds());
    }
    return device(id);
  }

  private String deviceIds() {
    return devices.stream().map(DeviceProfile::id).collect(Collectors.joining(", "));
  }

  private String known(ColumnRef column) {
    List<String> ofTable =
        sizes.keySet().stream()
            .filter(c -> c.table().equals(column.table()))
            .map(ColumnRef::column)
            .toList();
    if (!ofTable.isEmpty()) {
      return "known columns of " + column.table() + ": " + String.join(", ", ofTable);
    }
    TreeSet<String> tables = new TreeSet<>();
    sizes.keySet().forEach(c -> tables.add(c.table()));
    return "no table " + column.table() + " is known; tables: " + String.join(", ", tables);
  }

  @Override
  public String toString() {
    return "CostModel["
        + devices.size()
        + " devices, "
        + sizes.size()
        + " columns"
        + (cpu.isPresent() ? ", cpu" : "")
        + "]";
  }
}

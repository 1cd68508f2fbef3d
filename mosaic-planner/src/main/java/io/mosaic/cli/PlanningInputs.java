package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.device.DevicePool;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.workload.ColumnSizes;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The inputs every planning command shares (picocli mixin): the devices (a catalogue to buy from,
 * or an installed, calibrated pool), the trace and the column sizes, turned into the cost model of
 * Section 4.1 and the workload of Eq. 4.
 */
final class PlanningInputs {
  static final class Devices {
    @Option(
        names = "--catalog",
        paramLabel = "NAME|FILE",
        description =
            "Devices one could buy (budget mode): built-in table1 (paper Table 1), ebs, csd"
                + " (a cold storage device), aws (S3 classes, EBS and instance NVMe, priced per"
                + " month), or a catalogue file; several separated by commas, e.g. table1,csd.")
    String catalog;

    @Option(
        names = "--devices",
        paramLabel = "FILE",
        description = "Installed devices (capacity mode): a devices.toml, calibrated.")
    Path devices;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Devices source;

  @Mixin HadoopOptions hadoop;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description =
          "With --devices: the device model `mosaic calibrate` wrote (default: on the metadata"
              + " device). With --catalog: a calibrated model whose [cpu] table says how fast"
              + " this host decodes (without one, predictions count the devices alone).")
  Path model;

  @Option(
      names = "--trace",
      required = true,
      paramLabel = "NAME|FILE",
      description = "Workload trace (paper Figure 3b): built-in tpch or tpcds, or a trace file.")
  String trace;

  @Option(
      names = "--sizes",
      required = true,
      paramLabel = "NAME|FILE",
      description =
          "Column sizes: built-in tpch-sfN or tpcds-sfN (N = 1, 10, 30, 100, ...), or a CSV"
              + " table,column,bytes,zstd_bytes,lz4_bytes.")
  String sizes;

  /**
   * The trace once an hour through AWS's billing month of 730 hours: a workload that runs
   * continuously, and a round figure to scale from (docs/cost-model.md, "Money per month").
   */
  static final double DEFAULT_RUNS_PER_MONTH = 730;

  @Option(
      names = "--runs-per-month",
      paramLabel = "N",
      description =
          "With a catalogue priced per month (aws): how often a month the workload of the trace"
              + " runs, which prices its GET requests and GB retrieved (default: 730, once an"
              + " hour).")
  Double runsPerMonth;

  private ColumnSizes loadedSizes;
  private List<CatalogDevice> loadedCatalog;

  boolean catalogMode() {
    return source.catalog != null;
  }

  /** The catalogue's devices (with --catalog). */
  List<CatalogDevice> catalog() {
    if (loadedCatalog == null) {
      loadedCatalog = DeviceCatalog.load(source.catalog);
    }
    return loadedCatalog;
  }

  /**
   * Whether budgets are money per month: a catalogue priced per GB-month (docs/cost-model.md,
   * "Money per month").
   */
  boolean monthly() {
    return catalogMode() && DeviceCatalog.monthly(catalog());
  }

  /** How costs are written: once, or per month for a catalogue priced per month. */
  Money money() {
    return Money.of(monthly());
  }

  /** How often a month the trace's workload runs (--runs-per-month, or the default). */
  double runsPerMonth() {
    return runsPerMonth == null ? DEFAULT_RUNS_PER_MONTH : runsPerMonth;
  }

  /**
   * The cost model for {@code workload}: with a catalogue priced per month, each column's reads
   * priced as the workload runs {@link #runsPerMonth} times a month (docs/cost-model.md, "Money per
   * month"); otherwise {@link #costModel()}.
   */
  CostModel costModel(Workload workload) {
    boolean monthly = monthly();
    if (runsPerMonth != null && !monthly) {
      throw MosaicException.invalid(
          "--runs-per-month prices a month's reads, but "
              + (catalogMode()
                  ? "catalogue " + source.catalog + " prices its devices once (cost_per_gb)"
                  : "installed devices are not rented by the month")
              + "; drop --runs-per-month, or give a catalogue priced per month (aws, or"
              + " cost_per_gb_month)");
    }
    CostModel model = costModel();
    return monthly ? model.withMonthlyReads(workload, runsPerMonth()) : model;
  }

  ColumnSizes sizes() {
    if (loadedSizes == null) {
      loadedSizes = ColumnSizes.load(sizes);
    }
    return loadedSizes;
  }

  Workload workload() {
    return TraceFile.load(trace);
  }

  CostModel costModel() {
    List<DeviceProfile> profiles = new ArrayList<>();
    Optional<CpuModel> cpu = Optional.empty();
    if (catalogMode()) {
      for (CatalogDevice d : catalog()) {
        profiles.add(DeviceProfile.catalog(d, sizes().ratio(d.codec())));
      }
      if (model != null) {
        cpu = readCpu(model);
      }
    } else {
      DevicePool pool = hadoop.load(source.devices);
      Path modelFile = model != null ? model : pool.modelFile();
      if (!Files.exists(modelFile)) {
        throw MosaicException.notFound(
            "no device model at "
                + modelFile
                + "; run `mosaic calibrate --devices "
                + source.devices
                + "` first, or give --model");
      }
      Map<String, DeviceModel> models;
      try {
        models = DeviceModelFile.read(modelFile);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read device model " + modelFile, e);
      }
      pool.devices()
          .forEach(
              d -> {
                DeviceModel m = models.get(d.id());
                if (m == null) {
                  throw MosaicException.notFound(
                      "device model "
                          + modelFile
                          + " has no entry for device '"
                          + d.id()
                          + "'; run `mosaic calibrate --devices "
                          + source.devices
                          + " --device "
                          + d.id()
                          + "`");
                }
                profiles.add(DeviceProfile.installed(d.spec(), m));
              });
      cpu = readCpu(modelFile);
    }
    return CostModel.of(profiles, sizes().columns(), cpu);
  }

  private static Optional<CpuModel> readCpu(Path modelFile) {
    try {
      return DeviceModelFile.readCpu(modelFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read device model " + modelFile, e);
    }
  }

  /** Capacity mode on installed devices; budget mode with a budget; else unbounded purchase. */
  PlacementProblem problem(CostModel model, Workload workload, Double budgetCents) {
    return problem(model, workload, budgetCents, PlacementOptions.defaults());
  }

  /** As {@link #problem(CostModel, Workload, Double)}, under the user's constraints. */
  PlacementProblem problem(
      CostModel model, Workload workload, Double budgetCents, PlacementOptions options) {
    PlacementMode mode =
        budgetCents == null ? PlacementMode.CAPACITY : PlacementMode.budget(budgetCents);
    return new PlacementProblem(model, workload, mode, options);
  }
}

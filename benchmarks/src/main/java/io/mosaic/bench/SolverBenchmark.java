package io.mosaic.bench;

import io.mosaic.bench.experiments.ExperimentPool;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.Workload;
import io.mosaic.placement.HotColumnStrategy;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementStrategy;
import io.mosaic.workload.TraceFile;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Placement time on the shipped TPC-H trace (87 scans, 56 distinct) with paper Table 1's four
 * devices at SF 30 sizes, capacity mode, one of Figure 7's configurations (NVMe 20%, SATA SSD 20%,
 * RAID 5 20%, HDD 40% of the data): LOPT (the MIP on SCIP, solved to optimality) against the
 * baseline HOT column (a greedy sort). Complements Table 3 (docs/planner-benchmarks.md).
 *
 * <p>Run: {@code benchmarks/bench jmh SolverBenchmark -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class SolverBenchmark {
  @Param({"HOT column", "LOPT"})
  public String strategy;

  private PlacementProblem problem;
  private PlacementStrategy placer;

  @Setup
  public void setUp() {
    CostModel catalog = PlannerBenchmark.model("tpch-sf30");
    long total = 0;
    for (ColumnRef c : catalog.columns()) {
      total += catalog.storedBytes(catalog.device("nvme"), c);
    }
    long fifth = (long) (total * 0.2 * 1.1);
    CostModel model =
        new CostModel(
            ExperimentPool.withCapacities(
                catalog.devices(),
                Map.of("nvme", fifth, "ssd", fifth, "raid5", fifth, "hdd", 2 * fifth)),
            catalog.sizes());
    Workload trace = TraceFile.load("tpch");
    problem = PlacementProblem.capacity(model, trace);
    placer =
        strategy.equals("LOPT")
            ? new LoptStrategy(Duration.ofSeconds(60))
            : new HotColumnStrategy();
  }

  /** Returns the predicted workload time, so the placement cannot be optimised away. */
  @Benchmark
  public double place() {
    return placer.place(problem).prediction().totalSeconds();
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(SolverBenchmark.class.getSimpleName()).build()).run();
  }
}

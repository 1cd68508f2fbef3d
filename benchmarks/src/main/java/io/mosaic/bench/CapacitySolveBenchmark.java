package io.mosaic.bench;

import io.mosaic.bench.experiments.CapacityConfigurations;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.InfeasiblePlacementException;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.workload.TraceFile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LOPT's solve time in capacity mode (Eq. 7): placing a workload on four installed Table 1 devices,
 * which is what paper Table 3 times ("a placement solution for four devices"). The devices are
 * sized as in Section 5.3's 56 configurations (each holds 0-100% of the data set in 20% steps,
 * shares adding up to 100%), with 10% slack as in {@code Figure7Strategies}, so the capacities bind
 * in every configuration with more than one device.
 *
 * <p>Usage: {@code benchmarks/bench CapacitySolveBenchmark [WORKLOADS] [SFS] [TIME_LIMIT_S]},
 * default {@code tpch,tpcds 1,30,100 60}. Prints one CSV row per solve, then a summary per workload
 * and scale factor.
 */
public final class CapacitySolveBenchmark {
  private static final double SLACK = 1.10;

  private CapacitySolveBenchmark() {}

  public static void main(String[] args) {
    String[] workloads = (args.length > 0 ? args[0] : "tpch,tpcds").split(",");
    String[] sfs = (args.length > 1 ? args[1] : "1,30,100").split(",");
    long limit = args.length > 2 ? Long.parseLong(args[2]) : 60;
    int wanted = args.length > 3 ? Integer.parseInt(args[3]) : Integer.MAX_VALUE;
    LoptStrategy lopt = new LoptStrategy(Duration.ofSeconds(limit));
    List<String> summary = new ArrayList<>();
    System.out.println("workload,sf,config,solve_s,objective_s,optimal,gap");
    for (String workload : workloads) {
      Workload trace = TraceFile.load(workload);
      for (String sf : sfs) {
        CostModel base = PlannerBenchmark.model(workload + "-sf" + sf);
        long total = 0;
        for (var column : base.columns()) {
          total += base.storedBytes(base.devices().get(0), column); // zstd on every device
        }
        List<String> ids = base.devices().stream().map(DeviceProfile::id).toList();
        List<Double> times = new ArrayList<>();
        int optimal = 0;
        int infeasible = 0;
        List<Map<String, Integer>> configs = CapacityConfigurations.all(ids);
        double step = Math.max(1.0, configs.size() / (double) Math.min(wanted, configs.size()));
        for (double i = 0; i < configs.size(); i += step) {
          Map<String, Integer> config = configs.get((int) i);
          Map<String, Long> capacity = new HashMap<>();
          for (var e : config.entrySet()) {
            capacity.put(e.getKey(), Math.round(total * e.getValue() / 100.0 * SLACK));
          }
          List<DeviceProfile> devices =
              base.devices().stream()
                  .map(d -> d.withCapacity(capacity.getOrDefault(d.id(), 0L)))
                  .toList();
          CostModel model = CostModel.of(devices, base.sizes().values());
          PlacementResult r;
          try {
            r = lopt.place(PlacementProblem.capacity(model, trace));
          } catch (InfeasiblePlacementException e) {
            infeasible++; // a column larger than its share: no placement exists
            continue;
          }
          double seconds = r.solveTime().toMillis() / 1000.0;
          times.add(seconds);
          optimal += r.optimal() ? 1 : 0;
          System.out.printf(
              Locale.ROOT,
              "%s,%s,%s,%.2f,%.4f,%s,%.2e%n",
              workload,
              sf,
              CapacityConfigurations.label(config),
              seconds,
              r.objective(),
              r.optimal(),
              r.gap());
        }
        times.sort(null);
        summary.add(
            String.format(
                Locale.ROOT,
                "%s SF %s: %d configurations solved (%d infeasible), %d proven optimal;"
                    + " solve time median %.2f s, 90th percentile %.2f s, max %.2f s",
                workload,
                sf,
                times.size(),
                infeasible,
                optimal,
                percentile(times, 0.5),
                percentile(times, 0.9),
                times.isEmpty() ? 0 : times.get(times.size() - 1)));
        System.out.println("# " + summary.get(summary.size() - 1));
      }
    }
    summary.forEach(System.out::println);
  }

  private static double percentile(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return 0;
    }
    return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
  }
}

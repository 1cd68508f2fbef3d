package io.mosaic.bench.headline;

import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.HotTableStrategy;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The two Parquet answers at a budget (docs/experiments/headline.md), priced with the real bytes of
 * each table's Parquet copy ({@code parquet-bytes.csv}) at the catalogue's cents per GB:
 *
 * <ul>
 *   <li>{@code parquet-alone}: every table on the fastest single device class whose price for the
 *       whole data set fits the budget (the HDD, over budget, when none fits: said in the note);
 *   <li>{@code parquet-table}: HOT table (paper Section 4.3) under the budget, the tablespace
 *       answer: tables in descending order of the scans that touch them, each on the fastest device
 *       the budget still allows, keeping enough money for the remaining tables on the cheapest
 *       device. The planner's {@link HotTableStrategy} knows capacities, not prices (it refuses
 *       budget mode), so the budget rule is here; the hotness order is the planner's.
 * </ul>
 *
 * Writes one line per answer to OUT: {@code name TAB cost_cents TAB model_s TAB table=device,...
 * TAB note}. {@code model_s} is the cost model's time of the placement with Mosaic's column sizes
 * (the Parquet copies' own sizes differ a little), for reference only.
 */
final class ParquetAnswers {
  private ParquetAnswers() {}

  static void write(Path dir, double budgetCents, Path out) throws IOException {
    CostModel model = Headline.catalogModel(dir);
    Workload trace = TraceFile.load(dir.resolve("trace.csv").toString());
    Map<String, Map<String, Long>> bytes = Headline.parquetBytes(dir);
    List<DeviceProfile> fastestFirst =
        model.devices().stream()
            .sorted(
                Comparator.comparingDouble((DeviceProfile d) -> d.raw().bytesPerSecond())
                    .reversed())
            .toList();
    DeviceProfile cheapest =
        model.devices().stream()
            .min(Comparator.comparingDouble((DeviceProfile d) -> d.costPerGb().cents()))
            .get();
    List<String> lines = new ArrayList<>();

    // Parquet alone: the fastest class that holds everything at this price.
    Map<String, String> alone = null;
    String note = "";
    for (DeviceProfile d : fastestFirst) {
      Map<String, String> all = new LinkedHashMap<>();
      bytes.keySet().forEach(t -> all.put(t, d.id()));
      if (cost(model, bytes, all) <= budgetCents) {
        alone = all;
        break;
      }
    }
    if (alone == null) {
      alone = new LinkedHashMap<>();
      for (String t : bytes.keySet()) {
        alone.put(t, cheapest.id());
      }
      note = "over budget: no device class holds the Parquet data at this price";
    }
    lines.add(line(model, trace, bytes, "parquet-alone", alone, note));

    // HOT table under the budget.
    Map<String, String> byTable = new LinkedHashMap<>();
    List<String> order =
        new ArrayList<>(HotTableStrategy.tablesHottestFirst(model.columns(), trace).keySet());
    double spent = 0;
    for (int i = 0; i < order.size(); i++) {
      String t = order.get(i);
      double rest = 0;
      for (String later : order.subList(i + 1, order.size())) {
        rest += cents(model, bytes, later, cheapest.id());
      }
      String chosen = cheapest.id();
      for (DeviceProfile d : fastestFirst) {
        if (spent + cents(model, bytes, t, d.id()) + rest <= budgetCents) {
          chosen = d.id();
          break;
        }
      }
      byTable.put(t, chosen);
      spent += cents(model, bytes, t, chosen);
    }
    lines.add(
        line(
            model,
            trace,
            bytes,
            "parquet-table",
            byTable,
            spent > budgetCents
                ? "over budget: the tables do not fit even on the cheapest device"
                : ""));
    Files.writeString(out, String.join("\n", lines) + "\n");
    lines.forEach(System.out::println);
  }

  private static String line(
      CostModel model,
      Workload trace,
      Map<String, Map<String, Long>> bytes,
      String name,
      Map<String, String> deviceOfTable,
      String note) {
    double seconds = model.totalTime(trace, Headline.tablePlacement(model, deviceOfTable));
    return String.format(
        Locale.ROOT,
        "%s\t%.4f\t%.3f\t%s\t%s",
        name,
        cost(model, bytes, deviceOfTable),
        seconds,
        deviceOfTable.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(",")),
        note);
  }

  private static double cost(
      CostModel model, Map<String, Map<String, Long>> bytes, Map<String, String> deviceOfTable) {
    double cents = 0;
    for (var e : deviceOfTable.entrySet()) {
      cents += cents(model, bytes, e.getKey(), e.getValue());
    }
    return cents;
  }

  /** One table's Parquet copy on a device, at the device's price (Eq. 5 with Parquet's bytes). */
  private static double cents(
      CostModel model, Map<String, Map<String, Long>> bytes, String table, String device) {
    return bytes.get(table).get(device) / 1e9 * model.device(device).costPerGb().cents();
  }
}

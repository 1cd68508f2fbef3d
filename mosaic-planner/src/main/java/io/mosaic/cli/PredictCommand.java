package io.mosaic.cli;

import io.mosaic.model.CostModel;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import io.mosaic.model.Workload;
import io.mosaic.workload.PlacementFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic predict}: the cost model's verdict (Eq. 2-5) on any placement, without moving data.
 */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    description = {
      "Predict the scan time (paper Eq. 3-4) and cost (Eq. 5) of a placement for a trace.",
      "The placement file lists table,column,device; `recommend --placement-out` and"
          + " `import-solution --out` write one."
    })
public final class PredictCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PlanningInputs inputs;

  @Option(
      names = "--placement",
      required = true,
      paramLabel = "FILE",
      description = "The placement to predict: CSV table,column,device.")
  Path placement;

  @Option(names = "--scans", description = "Also list every distinct scan's predicted time.")
  boolean scans;

  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Commands.run(new PredictCommand(), args, out, err);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Workload workload = inputs.workload();
    CostModel model = inputs.costModel(workload);
    model.validate(workload);
    Placement p = PlacementFile.read(placement);
    Prediction prediction = model.predict(workload, p);
    out.printf(
        Locale.ROOT,
        "Predicted scan time: %.3f s for %d table scans (%d distinct)%n",
        prediction.totalSeconds(),
        workload.totalWeight(),
        workload.scans().size());
    Money money = inputs.money();
    if (money == Money.MONTHLY) {
      CostModel.Charges c = model.charges(p);
      out.printf(
          Locale.ROOT,
          "Cost (Eq. 5 per month, the trace run %s times a month): %s: storage %s, requests %s,"
              + " retrieval %s%n",
          new java.math.BigDecimal(inputs.runsPerMonth()).stripTrailingZeros().toPlainString(),
          money.format(prediction.costCents()),
          money.format(c.storageCents()),
          money.format(c.requestCents()),
          money.format(c.retrievalCents()));
    } else {
      out.printf(Locale.ROOT, "Cost (Eq. 5): %s%n", Commands.cents(prediction.costCents()));
    }
    if (model.devices().stream().anyMatch(d -> d.isCold())) {
      out.printf(
          Locale.ROOT,
          "Expected group switches of cold devices: %.2f (included in the scan time)%n",
          prediction.expectedSwitches());
    }
    TextTable devices = new TextTable("device", "GB", "columns");
    prediction
        .bytesPerDevice()
        .forEach(
            (d, bytes) ->
                devices.row(d, Commands.gb(bytes), String.valueOf(p.columnsOn(d).size())));
    out.print(devices.render());
    if (!inputs.catalogMode()) {
      model.devices().stream()
          .filter(d -> prediction.bytesPerDevice().get(d.id()) > d.capacityBytes())
          .forEach(
              d ->
                  out.printf(
                      Locale.ROOT,
                      "warning: '%s' would hold %s GB, more than its capacity of %s GB%n",
                      d.id(),
                      Commands.gb(prediction.bytesPerDevice().get(d.id())),
                      Commands.gb(d.capacityBytes())));
    }
    if (scans) {
      TextTable table = new TextTable("scan", "weight", "time");
      List<DistinctScan> list = workload.scans();
      for (int i = 0; i < list.size(); i++) {
        table.row(
            list.get(i).toString(),
            String.valueOf(list.get(i).weight()),
            String.format(Locale.ROOT, "%.4f s", prediction.perScanSeconds().get(i)));
      }
      out.print(table.render());
    }
    return 0;
  }
}

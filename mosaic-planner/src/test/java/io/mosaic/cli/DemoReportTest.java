package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.maintenance.Migrator;
import io.mosaic.maintenance.Migrator.RangeTarget;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo report's placement, read from the table's manifest, with a column split by rows. */
class DemoReportTest {
  @TempDir Path dir;

  @Test
  void aColumnSplitAcrossDevicesShowsEachDevicesRowGroups() throws IOException {
    // Columns k, v, s, d on nvme, ssd, raid, hdd; 8 row groups. The recent two of k go to hdd.
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("orders"), pool, 4);
    assertThat(table.latest().rowGroups()).hasSize(8);
    Migrator migrator = new Migrator(table);
    migrator.apply(
        migrator.planRanges(List.of(new RangeTarget("k", 6, 8, "hdd"))),
        new Migrator.Listener() {});

    String html =
        DemoReport.html(
            0.01,
            2.0,
            new BudgetSweep.Result(List.of(), 0, 0, 0),
            List.<String[]>of(new String[] {"LOPT", "1.000", "1.100"}),
            List.of(table));
    assertThat(html)
        .contains(
            "<td>orders</td>",
            "k (<span style=\"color:#1f77b4\">nvme 0:6</span>,"
                + " <span style=\"color:#7f7f7f\">hdd 6:8</span>)",
            // Whole columns as before: the column and its device.
            "<span style=\"color:#ff7f0e\">v (ssd)</span>",
            "<span style=\"color:#7f7f7f\">d (hdd)</span>")
        .doesNotContain("v (ssd 0:8)");
    assertThat(DemoReport.splitColumns(List.of(table)))
        .containsExactly("orders.k: nvme 0:6, hdd 6:8");

    // `mosaic table` shows the same parts.
    StringWriter out = new StringWriter();
    int status =
        MosaicCli.run(
            new String[] {
              "table",
              "--devices",
              dir.resolve("devices.toml").toString(),
              "--table",
              table.root().toString()
            },
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true));
    assertThat(status).isZero();
    assertThat(out.toString())
        .containsPattern("\\bk\\s+int64 not null\\s+nvme 0:6, hdd 6:8\\s")
        .containsPattern("\\bv\\s+double not null\\s+ssd\\s");
  }
}

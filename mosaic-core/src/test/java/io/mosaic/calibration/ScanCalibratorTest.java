package io.mosaic.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.model.CpuModel;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCalibratorTest {
  private static final Bandwidth FIXED = Bandwidth.parse("200 MB/s");

  @Test
  void stringCostsSplitIntoAValueAndAByteTermFromTwoSets() {
    // 15 ns a value and 3 ns a byte: four short-string columns (4 M values, 1 MB) and one wide
    // (1 M values, 30 MB).
    CpuModel.Decoding d =
        ScanCalibrator.stringCosts(
            FIXED,
            new ScanCalibrator.Figure(4e6 * 15e-9 + 1e6 * 3e-9, 4e6, 1e6),
            new ScanCalibrator.Figure(1e6 * 15e-9 + 30e6 * 3e-9, 1e6, 30e6));
    assertThat(d.variableValueNanos()).isCloseTo(15, within(1e-6));
    assertThat(d.variableBytes().bytesPerSecond()).isCloseTo(1 / 3e-9, withinPercentage(1e-6));
    assertThat(d.fixedWidth()).isEqualTo(FIXED);

    // Figures no value-and-byte split explains (the short strings cheaper per value than the
    // bytes of the wide one allow): strings cost per byte alone, their total over their bytes.
    CpuModel.Decoding perByte =
        ScanCalibrator.stringCosts(
            FIXED,
            new ScanCalibrator.Figure(0.01, 4e6, 1e6),
            new ScanCalibrator.Figure(0.5, 1e6, 30e6));
    assertThat(perByte.variableValueNanos()).isZero();
    assertThat(perByte.variableBytes().bytesPerSecond())
        .isCloseTo(31e6 / 0.51, withinPercentage(1e-6));
  }

  @Test
  void calibratesDecodingByKindOfValueOnARealTable(@TempDir Path dir) throws IOException {
    DevicePool pool = TableFixtures.fourDevices(dir);
    MosaicTable lineitem =
        TableFixtures.lineitem(dir.resolve("lineitem"), pool, 0.005, new ArrayList<>(), -1);
    MosaicTable orders =
        TableFixtures.orders(dir.resolve("orders"), pool, 0.001, new ArrayList<>());
    ScanCalibrator.Kinds kinds = ScanCalibrator.Kinds.of(lineitem.latest());
    assertThat(kinds.widest()).containsExactly("l_comment");
    assertThat(kinds.narrow())
        .containsExactlyInAnyOrder("l_returnflag", "l_linestatus", "l_shipinstruct", "l_shipmode");
    assertThat(kinds.fixed()).hasSize(11).doesNotContainAnyElementsOf(kinds.narrow());
    assertThat(kinds.rows()).isEqualTo(lineitem.latest().rowCount());

    List<String> progress = new ArrayList<>();
    CpuModel cpu =
        new ScanCalibrator(pool, 0.3, (what, result) -> progress.add(what + ": " + result))
            .measure(Map.of(Codec.ZSTD, lineitem), orders, 2);
    CpuModel.Decoding zstd = cpu.byKind().get(Codec.ZSTD);
    assertThat(zstd).isNotNull();
    assertThat(zstd.fixedWidth().bytesPerSecond()).isPositive();
    // The mean rate (for columns whose kind is not known) is the one the rates by kind give.
    assertThat(cpu.decode(Codec.ZSTD).bytesPerSecond())
        .isCloseTo(kinds.meanRate(zstd).bytesPerSecond(), withinPercentage(1e-9));
    assertThat(cpu.cores()).isBetween(1.0, 2.0);
    assertThat(progress)
        .anyMatch(l -> l.startsWith("zstd decoding, 1 core: ") && l.contains("ns a value"))
        .anyMatch(l -> l.startsWith("cores a scan gets: "));
  }
}

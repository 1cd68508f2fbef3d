package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Eq. 2-5 on a hand-computed example: an lz4 SSD and an uncompressed HDD, three columns.
 *
 * <pre>
 * ssd: seek 1 ms, raw 500 MB/s, effective 2000 MB/s (lz4 decompression), ratio 2.5, 60 ct/GB
 * hdd: seek 10 ms, raw = effective 200 MB/s, no codec, 30 ct/GB
 * t.a 1 GB; t.b 2 GB, stored by lz4 in 0.4 GB (real size, ratio 5); t.c 0.5 GB
 * </pre>
 */
class CostModelTest {
  private static final Offset<Double> EPS = within(1e-9);

  static final ColumnRef A = new ColumnRef("t", "a");
  static final ColumnRef B = new ColumnRef("t", "b");
  static final ColumnRef C = new ColumnRef("t", "c");

  static final DeviceProfile SSD =
      new DeviceProfile(
          "ssd",
          Codec.LZ4,
          Latency.ofMillis(1),
          Bandwidth.ofMegabytesPerSecond(500),
          Bandwidth.ofMegabytesPerSecond(2000),
          2.5,
          10_000_000_000L,
          Cost.ofCents(60));
  static final DeviceProfile HDD =
      new DeviceProfile(
          "hdd",
          Codec.NONE,
          Latency.ofMillis(10),
          Bandwidth.ofMegabytesPerSecond(200),
          Bandwidth.ofMegabytesPerSecond(200),
          1.0,
          100_000_000_000L,
          Cost.ofCents(30));

  static final CostModel MODEL =
      CostModel.of(
          List.of(SSD, HDD),
          List.of(
              ColumnSize.uncompressed(A, 1_000_000_000L),
              new ColumnSize(B, 2_000_000_000L, Map.of(Codec.LZ4, 400_000_000L)),
              ColumnSize.uncompressed(C, 500_000_000L)));

  static final Placement PLACEMENT = new Placement(Map.of(A, "ssd", B, "ssd", C, "hdd"));

  static final Workload WORKLOAD =
      Workload.merging(
          List.of(DistinctScan.of(3, A, B), DistinctScan.of(1, A, C), DistinctScan.of(2, B, C)));

  @Test
  void storedBytesUseTheRealCompressedSizeBeforeTheRatioEstimate() {
    assertThat(MODEL.storedBytes(SSD, A)).isEqualTo(400_000_000L); // 1 GB / 2.5
    assertThat(MODEL.storedBytes(SSD, B)).isEqualTo(400_000_000L); // real lz4 size, not 2 GB / 2.5
    assertThat(MODEL.storedBytes(SSD, C)).isEqualTo(200_000_000L);
    // An uncompressed device stores the uncompressed size, whatever lz4 achieved elsewhere.
    assertThat(MODEL.storedBytes(HDD, B)).isEqualTo(2_000_000_000L);
  }

  @Test
  void columnTimeIsEquationTwoCappedByDecompression() {
    // a: I/O-bound, 0.001 + 0.4 GB / 0.5 GB/s (Eq. 2) > 1 GB / 2 GB/s decompressed.
    assertThat(MODEL.columnTime(SSD, A)).isCloseTo(0.801, EPS);
    // b: its real size makes I/O 0.8 s, but decompressing 2 GB at 2 GB/s takes 1 s.
    assertThat(MODEL.columnTime(SSD, B)).isCloseTo(1.001, EPS);
    assertThat(MODEL.columnTime(SSD, C)).isCloseTo(0.401, EPS);
    assertThat(MODEL.columnTime(HDD, A)).isCloseTo(5.01, EPS);
    assertThat(MODEL.columnTime(HDD, B)).isCloseTo(10.01, EPS);
    assertThat(MODEL.columnTime(HDD, C)).isCloseTo(2.51, EPS);
  }

  @Test
  void scanTimeIsTheSlowestDevicesSum() {
    // Eq. 3: {a,b} both on ssd add up; {a,c} and {b,c} overlap ssd and hdd, hdd is slower.
    assertThat(MODEL.scanTime(DistinctScan.of(1, A, B), PLACEMENT)).isCloseTo(1.802, EPS);
    assertThat(MODEL.scanTime(DistinctScan.of(1, A, C), PLACEMENT)).isCloseTo(2.51, EPS);
    assertThat(MODEL.scanTime(DistinctScan.of(1, B, C), PLACEMENT)).isCloseTo(2.51, EPS);
  }

  @Test
  void predictionWeighsScansAndPricesStoredBytes() {
    Prediction p = MODEL.predict(WORKLOAD, PLACEMENT);

    assertThat(p.perScanSeconds())
        .satisfiesExactly(
            t -> assertThat(t).isCloseTo(1.802, EPS),
            t -> assertThat(t).isCloseTo(2.51, EPS),
            t -> assertThat(t).isCloseTo(2.51, EPS));
    // Eq. 4: 3 * 1.802 + 1 * 2.51 + 2 * 2.51
    assertThat(p.totalSeconds()).isCloseTo(12.936, EPS);
    assertThat(MODEL.totalTime(WORKLOAD, PLACEMENT)).isCloseTo(12.936, EPS);
    // Eq. 5: ssd 0.8 GB * 60 ct + hdd 0.5 GB * 30 ct
    assertThat(p.costCents()).isCloseTo(63.0, EPS);
    assertThat(p.bytesPerDevice())
        .containsExactly(Map.entry("ssd", 800_000_000L), Map.entry("hdd", 500_000_000L));
  }

  @Test
  void allOnOneDeviceAddsEveryColumn() {
    Placement allHdd = new Placement(Map.of(A, "hdd", B, "hdd", C, "hdd"));

    assertThat(MODEL.scanTime(DistinctScan.of(1, A, B, C), allHdd)).isCloseTo(17.53, EPS);
    assertThat(MODEL.cost(allHdd)).isCloseTo(105.0, EPS);
    assertThat(MODEL.usedBytes(allHdd))
        .containsExactly(Map.entry("ssd", 0L), Map.entry("hdd", 3_500_000_000L));
  }

  @Test
  void aScanOfAnUnknownColumnNamesTheKnownOnes() {
    Workload bad = Workload.merging(List.of(DistinctScan.of(1, A, new ColumnRef("t", "x"))));

    assertThatThrownBy(() -> MODEL.predict(bad, PLACEMENT))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.NOT_FOUND)
        .hasMessage("trace names unknown column t.x; known columns of t: a, b, c");
    assertThatThrownBy(() -> MODEL.validate(bad))
        .hasMessage("trace names unknown column t.x; known columns of t: a, b, c");
    assertThatThrownBy(() -> MODEL.size(new ColumnRef("u", "x")))
        .hasMessage("trace names unknown column u.x; no table u is known; tables: t");
  }

  @Test
  void placementsMustPlaceEveryColumnOnAKnownDevice() {
    Placement missing = new Placement(Map.of(A, "ssd", B, "ssd"));
    Placement unknownDevice = new Placement(Map.of(A, "ssd", B, "ssd", C, "nvme"));

    assertThatThrownBy(() -> MODEL.cost(missing))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
        .hasMessage("placement does not place column t.c");
    assertThatThrownBy(() -> MODEL.scanTime(DistinctScan.of(1, A, C), missing))
        .hasMessage("placement does not place column t.c");
    assertThatThrownBy(() -> MODEL.predict(WORKLOAD, unknownDevice))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.NOT_FOUND)
        .hasMessage("placement puts t.c on unknown device 'nvme'; devices: ssd, hdd");
  }

  @Test
  void workloadMergesEqualColumnSetsIntoWeights() {
    Workload w = Workload.ofScans(List.of(Set.of(A, B), Set.of(C), Set.of(B, A)));

    assertThat(w.scans()).containsExactly(DistinctScan.of(2, A, B), DistinctScan.of(1, C));
    assertThat(w.totalWeight()).isEqualTo(3);
  }

  /**
   * Mosaic's extension of Eq. 3 (docs/cost-model.md) on the same example, with two cores that
   * decode 250 MB/s of uncompressed lz4 data each and 1000 MB/s of uncompressed data, and 2 ms per
   * scan.
   */
  static final CpuModel CPU =
      new CpuModel(
          2,
          Latency.ofMillis(2),
          Map.of(
              Codec.LZ4, Bandwidth.ofMegabytesPerSecond(250),
              Codec.NONE, Bandwidth.ofMegabytesPerSecond(1000)));

  @Test
  void withACpuModelAScanIsAReadDecodePipelinePlusTheFixedCost() {
    CostModel model = MODEL.withCpu(java.util.Optional.of(CPU));

    // Devices count their I/O alone: decompression is the cores' work.
    assertThat(model.columnTime(SSD, A)).isCloseTo(0.001 + 0.4 / 0.5, EPS);
    assertThat(model.columnTime(HDD, C)).isCloseTo(0.010 + 0.5 / 0.2, EPS);
    assertThat(model.cpuTime(SSD, A)).isCloseTo(1.0 / 0.25 / 2, EPS); // 2 s
    assertThat(model.cpuTime(HDD, C)).isCloseTo(0.5 / 1.0 / 2, EPS); // 0.25 s
    assertThat(model.scanFixedTime()).isCloseTo(0.002, EPS);

    // {A, B} on the SSD: I/O 0.001 + 0.8 + 0.001 + 0.8 = 1.602 s; decoding (1 + 2 GB) / 0.25 / 2
    // = 6 s: CPU-bound, and the first of the two pieces is read before decoding starts.
    assertThat(model.scanTime(DistinctScan.of(1, A, B), PLACEMENT))
        .isCloseTo(6.0 + 1.602 / 2 + 0.002, EPS);
    // {A, C}: SSD 0.801 s, HDD 2.51 s, decoding 2 + 0.25 s: the HDD binds, and the last piece is
    // decoded after it.
    assertThat(model.scanTime(DistinctScan.of(1, A, C), PLACEMENT))
        .isCloseTo(2.51 + 2.25 / 2 + 0.002, EPS);
    // One column: nothing overlaps, reading then decoding.
    assertThat(model.scanTime(DistinctScan.of(1, C), PLACEMENT))
        .isCloseTo(2.51 + 0.25 + 0.002, EPS);
    // Without a CPU model, the paper's Eq. 3 as before.
    assertThat(MODEL.scanTime(DistinctScan.of(1, A, C), PLACEMENT))
        .isCloseTo(Math.max(MODEL.columnTime(SSD, A), MODEL.columnTime(HDD, C)), EPS);
    assertThat(model.toString()).isEqualTo("CostModel[2 devices, 3 columns, cpu]");
  }

  @Test
  void withRatesByKindStringsCostPerValueAndNumbersAtTheirOwnRate() {
    // lz4: fixed-width 500 MB/s, strings 800 MB/s plus 20 ns a value; two cores, as above.
    CpuModel cpu =
        new CpuModel(
            2,
            Latency.ofMillis(2),
            CPU.decode(),
            Map.of(
                Codec.LZ4,
                new CpuModel.Decoding(
                    Bandwidth.ofMegabytesPerSecond(500), Bandwidth.ofMegabytesPerSecond(800), 20)));
    CostModel model =
        CostModel.of(
            List.of(SSD, HDD),
            List.of(
                new ColumnSize(A, 1_000_000_000L, Map.of(), 125_000_000L, false),
                new ColumnSize(B, 2_000_000_000L, Map.of(), 50_000_000L, true),
                ColumnSize.uncompressed(C, 500_000_000L)),
            java.util.Optional.of(cpu));
    assertThat(model.cpuTime(SSD, A)).isCloseTo(1.0 / 0.5 / 2, EPS); // 1 s
    assertThat(model.cpuTime(SSD, B)).isCloseTo((0.05 * 20 + 2.0 / 0.8) / 2, EPS); // 1.75 s
    // C's values are not known, and none has no rates by kind: the mean rates, as before.
    assertThat(model.cpuTime(HDD, C)).isCloseTo(0.5 / 1.0 / 2, EPS);
    assertThat(model.cpuTime(SSD, C)).isCloseTo(0.5 / 0.25 / 2, EPS);
    // A's values on the uncompressed HDD: no rates by kind for none, its mean rate.
    assertThat(model.cpuTime(HDD, A)).isCloseTo(1.0 / 1.0 / 2, EPS);
  }
}

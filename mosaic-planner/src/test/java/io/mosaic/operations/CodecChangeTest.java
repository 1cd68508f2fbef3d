package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.design.DesignExecutor;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableRoundTripTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A codec change identified and run by {@code maintain} (docs/physical-design.md, "Codec changes"):
 * on a fast device whose calibrated zstd decoding is slow, the columns the workload reads are
 * re-encoded uncompressed where they are, in one version each, and nothing else changes.
 */
class CodecChangeTest {
  @TempDir Path dir;

  private static final DesignExecutor.Listener QUIET = new DesignExecutor.Listener() {};

  @Test
  void readColumnsGetTheFasterCodecOnTheirDeviceAndTheRestStay() throws Exception {
    Files.createDirectories(dir.resolve("pool/nvme"));
    Path devices = dir.resolve("devices.toml");
    Files.writeString(
        devices,
        """
        [[device]]
        id = "nvme"
        path = "pool/nvme"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "125 ct"
        metadata = true
        """);
    DevicePool pool = DevicePool.load(devices);
    // zstd decodes at 5 MB/s on this host, lz4 at 500 MB/s, none at 1 GB/s; the device reads
    // 2 GB/s: decoding binds, so the uncompressed column is the fastest to scan.
    DeviceModelFile.write(
        pool.modelFile(),
        List.of(
            new DeviceModel(
                "nvme",
                2,
                Bandwidth.ofMegabytesPerSecond(2000),
                Latency.ofMillis(0.1),
                Map.of(
                    Codec.ZSTD,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(5), 3.0)))),
        new CpuModel(
            1,
            Latency.ZERO,
            Map.of(
                Codec.ZSTD, Bandwidth.ofMegabytesPerSecond(5),
                Codec.LZ4, Bandwidth.ofMegabytesPerSecond(500),
                Codec.NONE, Bandwidth.ofMegabytesPerSecond(1000))),
        "test model: slow zstd decoding");
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"),
            pool,
            CrashWorkload.SCHEMA,
            Map.of(TableProperties.DEFAULT_DEVICE, "nvme", TableProperties.ROW_GROUP_ROWS, "2000"));
    CrashWorkload.append(table, 0);
    CrashWorkload.append(table, 1);
    Manifest before = table.latest();
    scan(pool, table, 3);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));

    MaintainResult r =
        executor.maintain(
            MaintainRequest.parse("t", null, "constant", "1 GB/s", null, null, null, null, null),
            QUIET,
            false);
    assertThat(r.state()).as(r.reason()).isEqualTo("done");
    assertThat(r.reason()).startsWith("worth it: 0 moves and 2 codec changes");
    assertThat(r.steps()).extracting(MaintainResult.StepRow::toDevice).containsOnly("nvme (none)");
    Manifest after = MosaicTable.open(dir.resolve("t"), pool).latest();
    assertThat(after.version()).isEqualTo(before.version() + 2);
    for (String c : List.of("k", "v")) {
      assertThat(after.segmentsOf(c))
          .as(c)
          .allSatisfy(
              s -> {
                assertThat(s.codec()).isEqualTo(Codec.NONE);
                assertThat(s.device()).isEqualTo("nvme");
              });
      assertThat(after.properties()).containsEntry(MosaicTable.codecProperty(c), "none");
    }
    // The columns no scan reads keep their codec and their files.
    for (String c : List.of("s", "d")) {
      assertThat(after.segmentsOf(c)).isEqualTo(before.segmentsOf(c));
      assertThat(after.segmentsOf(c)).extracting(SegmentEntry::codec).containsOnly(Codec.ZSTD);
    }
    try (BufferAllocator alloc = new RootAllocator()) {
      MosaicTable t = MosaicTable.open(dir.resolve("t"), pool);
      TableRoundTripTest.assertRowsEqual(t, after, CrashWorkload.rows(0, 1), alloc);
    }

    // The same workload in the new epoch: nothing left to change.
    scan(pool, MosaicTable.open(dir.resolve("t"), pool), 3);
    MaintainResult again =
        executor.maintain(
            MaintainRequest.parse("t", null, null, null, null, null, null, null, true),
            QUIET,
            false);
    assertThat(again.steps()).as(again.reason()).isEmpty();
  }

  private static void scan(DevicePool pool, MosaicTable table, int times) {
    try (Retriever retriever = new Retriever(pool)) {
      for (int i = 0; i < times; i++) {
        try (Scan scan = retriever.scan(table, ScanRequest.of(List.of("k", "v")))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
  }
}

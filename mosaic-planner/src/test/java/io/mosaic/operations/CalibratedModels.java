package io.mosaic.operations;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.DevicePool;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Device models the planner's tests write as `mosaic calibrate` would, instead of measuring. */
public final class CalibratedModels {
  private CalibratedModels() {}

  /**
   * Writes {@code dir}/devices.toml for the pool {@link #nvme40xHdd} models: an emulated NVMe-like
   * and HDD-like device, under {@code dir}/pool.
   */
  public static Path writeNvmeAndHdd(Path dir) throws IOException {
    return Files.writeString(
        dir.resolve("devices.toml"),
        """
        [[device]]
        id = "nvme"
        path = "pool/nvme"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "125 ct"
        metadata = true
        emulate = { read = "2 GB/s" }

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "1 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "30 ct"
        emulate = { read = "1 GB/s", seek = "1 ms" }
        """);
  }

  /**
   * The pool of {@link #writeNvmeAndHdd} in {@code dir}, with the model {@link #nvme40xHdd} writes
   * as `mosaic calibrate` would.
   */
  public static DevicePool nvmeAndHddPool(Path dir) throws IOException {
    DevicePool pool = DevicePool.load(writeNvmeAndHdd(dir));
    nvme40xHdd(pool);
    return pool;
  }

  /** A pool of an "nvme" (zstd) and an "hdd" (lz4) device: the nvme reads 40x faster. */
  public static void nvme40xHdd(DevicePool pool) throws IOException {
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
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(3000), 3.0))),
            new DeviceModel(
                "hdd",
                1,
                Bandwidth.ofMegabytesPerSecond(50),
                Latency.ofMillis(8),
                Map.of(
                    Codec.LZ4,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(80), 2.0)))),
        "test model: nvme is 40x faster than hdd");
  }
}

package io.mosaic.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.model.DeviceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calibration's seek time is the wait a scan sees on the device's reader threads. On a device whose
 * reads queue on one timeline (a disk head; the emulation's throttle), the threads' random reads
 * still pay a whole seek each, so issuing them side by side must not shrink it.
 */
class DeviceCalibratorTest {
  private static final DeviceCalibrator.Listener QUIET = new DeviceCalibrator.Listener() {};

  @Test
  void aSeekOnOneTimelineIsNotSharedByTheReaderThreads(@TempDir Path dir) throws IOException {
    Path config = dir.resolve("devices.toml");
    Files.writeString(
        config,
        """
        [[device]]
        id = "disk"
        path = "disk"
        capacity = "1 GB"
        threads = 4
        codec = "none"
        cost_per_gb = 1
        emulate = { read = "400 MB/s", seek = "5 ms" }
        """);
    Device device = DevicePool.load(config).device("disk");
    byte[] sample = new byte[4 * DeviceCalibrator.BLOCK];
    new Random(7).nextBytes(sample);

    DeviceModel model =
        new DeviceCalibrator(sample, new DeviceCalibrator.Options(List.of(Codec.NONE), 24), QUIET)
            .calibrate(device);

    assertThat(model.threads()).isEqualTo(4);
    // 24 probes of 4 KiB on one timeline take at least 24 x (5 ms + 10 us); only the transfer at
    // the calibrated raw rate is taken off, so a seek divided among 4 threads (1.25 ms) fails this.
    assertThat(model.seek().seconds()).isGreaterThanOrEqualTo(0.0045);
  }
}

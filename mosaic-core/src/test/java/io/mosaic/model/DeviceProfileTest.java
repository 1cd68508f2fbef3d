package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.ByteSize;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.DeviceSpec;
import io.mosaic.config.Latency;
import io.mosaic.model.DeviceModel.CodecModel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeviceProfileTest {
  private static DeviceSpec spec(Codec codec) {
    return new DeviceSpec(
        "sata",
        "SATA SSD",
        Path.of("/mnt/sata"),
        ByteSize.parse("500 GB"),
        4,
        codec,
        Cost.ofCents(60),
        Latency.ofMillis(5), // as configured; the model's measured seek wins
        false,
        Optional.empty());
  }

  private static final DeviceModel MODEL =
      new DeviceModel(
          "sata",
          4,
          Bandwidth.ofMegabytesPerSecond(410),
          Latency.ofMillis(0.1),
          Map.of(
              Codec.NONE, new CodecModel(Bandwidth.ofMegabytesPerSecond(410), 1.0),
              Codec.ZSTD, new CodecModel(Bandwidth.ofMegabytesPerSecond(1200), 3.8)));

  @Test
  void installedDeviceTakesCapacityAndPriceFromItsSpecAndRatesFromCalibration() {
    DeviceProfile p = DeviceProfile.installed(spec(Codec.ZSTD), MODEL);

    assertThat(p)
        .isEqualTo(
            new DeviceProfile(
                "sata",
                Codec.ZSTD,
                Latency.ofMillis(0.1),
                Bandwidth.ofMegabytesPerSecond(410),
                Bandwidth.ofMegabytesPerSecond(1200),
                3.8,
                500_000_000_000L,
                Cost.ofCents(60)));
    assertThat(p.boundedCapacity()).isTrue();
  }

  @Test
  void installedDeviceWithAnUncalibratedCodecAsksForCalibration() {
    assertThatThrownBy(() -> DeviceProfile.installed(spec(Codec.LZ4), MODEL))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
        .hasMessage(
            "device 'sata' stores lz4 but its device model has no lz4 throughput;"
                + " calibrate the device (docs/configuration.md)");
  }

  @Test
  void catalogDeviceIsUnboundedAndDecompressesAtRawTimesRatio() {
    CatalogDevice hdd =
        new CatalogDevice(
            "hdd",
            "HDD",
            Bandwidth.ofMegabytesPerSecond(230),
            Latency.ofMillis(8),
            1,
            Codec.ZSTD,
            Cost.ofCents(30),
            "Mosaic paper, Table 1");

    DeviceProfile measured = DeviceProfile.catalog(hdd, 4.0);
    DeviceProfile byDefault = DeviceProfile.catalog(hdd);

    assertThat(measured.capacityBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(measured.boundedCapacity()).isFalse();
    assertThat(measured.raw()).isEqualTo(Bandwidth.ofMegabytesPerSecond(230));
    assertThat(measured.effective().megabytesPerSecond()).isCloseTo(920, within(1e-9));
    assertThat(byDefault.ratio()).isEqualTo(DeviceProfile.DEFAULT_ZSTD_RATIO);
    assertThat(byDefault.effective().megabytesPerSecond()).isCloseTo(230 * 4.5, within(1e-9));
  }
}

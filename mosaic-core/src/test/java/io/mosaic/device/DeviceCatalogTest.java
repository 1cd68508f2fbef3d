package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceCatalogTest {
  @Test
  void paperTable1() {
    List<CatalogDevice> devices = DeviceCatalog.load("table1");
    assertThat(devices)
        .extracting(d -> d.id() + " " + d.costPerGb() + " " + d.read())
        .containsExactly(
            "nvme 125 ct 2.1 GB/s",
            "ssd 60 ct 410 MB/s",
            "raid5 45 ct 320 MB/s",
            "hdd 30 ct 230 MB/s");
    assertThat(devices).allSatisfy(d -> assertThat(d.source()).contains("Table 1"));
  }

  @Test
  void cloudVolumesOfTheThesis() {
    List<CatalogDevice> devices = DeviceCatalog.load("ebs");
    assertThat(devices)
        .extracting(CatalogDevice::id)
        .containsExactly("io2", "gp3", "gp2", "st1", "sc1");
    // 146.92 USD per TB-month is 14.692 cents per GB-month.
    assertThat(devices.get(1).costPerGb().cents()).isEqualTo(14.692);
    assertThat(devices.get(3).read().megabytesPerSecond()).isEqualTo(500);
    assertThat(devices).allSatisfy(d -> assertThat(d.source()).contains("Table 2.4"));
  }

  @Test
  void catalogueEntriesAreValidatedLikeThePool() {
    assertThatThrownBy(
            () ->
                DeviceConfigParser.parseCatalog(
                    "mine.toml",
                    """
                    [[device]]
                    id = "x"
                    read = "fast"
                    codec = "zstd"
                    cost_per_gb = "1 ct"
                    """))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "mine.toml:3: device 'x' field 'read': bad value \"fast\": expected a number and a"
                + " unit, like \"1.2 GB/s\"")
        .hasMessageContaining("mine.toml:1: device 'x' field 'source': missing");
    assertThatThrownBy(() -> DeviceCatalog.load("nope"))
        .hasMessage("no catalogue 'nope': not a file, and not a built-in one (table1, ebs)");
  }
}

package io.mosaic.config;

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
        .hasMessage("no catalogue 'nope': not a file, and not a built-in one (table1, ebs, csd)");
  }

  @Test
  void coldStorageDeviceOfSkipper() {
    List<CatalogDevice> devices = DeviceCatalog.load("table1,csd");
    assertThat(devices)
        .extracting(CatalogDevice::id)
        .containsExactly("nvme", "ssd", "raid5", "hdd", "csd");
    CatalogDevice csd = devices.get(4);
    assertThat(devices.subList(0, 4)).allSatisfy(d -> assertThat(d.cold()).isEmpty());
    // Skipper Section 3.1: $0.1/GB; Section 2.2: 1-2 GB/s, Pelican's 8 s switch, 8 % spun up.
    assertThat(csd.costPerGb().cents()).isEqualTo(10);
    assertThat(csd.read().megabytesPerSecond()).isEqualTo(1000);
    assertThat(csd.cold()).hasValueSatisfying(c -> assertThat(c.groups()).isEqualTo(12));
    assertThat(csd.cold().get().switchLatency().seconds()).isEqualTo(8);
    assertThat(csd.source()).contains("Skipper");
  }

  @Test
  void catalogueListsNeedDistinctIdsAndNames() {
    assertThatThrownBy(() -> DeviceCatalog.load("table1,table1"))
        .hasMessage(
            "device 'nvme' is in both catalogues table1 and table1; combine catalogues whose ids"
                + " differ");
    assertThatThrownBy(() -> DeviceCatalog.load("table1,"))
        .hasMessage(
            "catalogue list 'table1,' has an empty name; separate names with single commas, like"
                + " table1,csd");
  }

  @Test
  void aCatalogueColdDeviceIsCheckedAsInThePool() {
    assertThatThrownBy(
            () ->
                DeviceConfigParser.parseCatalog(
                    "mine.toml",
                    """
                    [[device]]
                    id = "csd"
                    read = "1 GB/s"
                    codec = "zstd"
                    cost_per_gb = "10 ct"
                    source = "a data sheet"
                    cold = { groups = 1, switch = "0 s", read = "1 GB/s" }
                    """))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "mine.toml:7: device 'csd' field 'cold.groups': bad value 1: a cold device needs at"
                + " least 2 disk groups")
        .hasMessageContaining(
            "device 'csd' field 'cold.switch': bad value \"0 s\": must be above" + " zero");
  }
}

package io.mosaic.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
  void awsPricesPerMonthWithRequestsAndRetrieval() {
    List<CatalogDevice> devices = DeviceCatalog.load("aws");
    assertThat(devices)
        .extracting(CatalogDevice::id)
        .containsExactly(
            "s3-standard",
            "s3-standard-ia",
            "s3-onezone-ia",
            "s3-glacier-ir",
            "s3-express",
            "ebs-gp3",
            "ebs-io2",
            "ebs-st1",
            "ebs-sc1",
            "nvme-i4i");
    assertThat(devices).allSatisfy(d -> assertThat(d.monthly()).isTrue());
    assertThat(DeviceCatalog.monthly(devices)).isTrue();
    assertThat(DeviceCatalog.monthly(DeviceCatalog.load("table1"))).isFalse();
    CatalogDevice glacier = devices.get(3);
    // $0.004/GB-month, $0.01 per 1,000 GET, $0.03/GB retrieved, in cents.
    assertThat(glacier.costPerGb().cents()).isCloseTo(0.4, within(1e-12));
    assertThat(glacier.access().per1000Requests().cents()).isCloseTo(1, within(1e-12));
    assertThat(glacier.access().perGbRetrieved().cents()).isCloseTo(3, within(1e-12));
    // An object store reads 16 streams of 85 MB/s at once; a GET's 30 ms first byte overlaps with
    // the other streams', so a column read waits a sixteenth of it.
    assertThat(glacier.read().megabytesPerSecond()).isCloseTo(16 * 85, within(1e-9));
    assertThat(glacier.threads()).isEqualTo(16);
    assertThat(glacier.seek().seconds()).isCloseTo(0.030 / 16, within(1e-12));
    CatalogDevice express = devices.get(4);
    assertThat(express.access().per1000Requests().cents()).isCloseTo(0.003, within(1e-12));
    assertThat(express.seek().seconds()).isCloseTo(0.005 / 16, within(1e-9));
    // EBS and instance NVMe bill storage alone.
    assertThat(devices.subList(5, 10)).allSatisfy(d -> assertThat(d.access().free()).isTrue());
    assertThat(devices.get(5).costPerGb().cents()).isCloseTo(8, within(1e-12));
    assertThat(devices).allSatisfy(d -> assertThat(d.source()).contains("2026-11-28", "$"));
    // The catalogues priced once are unchanged: no request or retrieval prices.
    for (String name : List.of("table1", "ebs", "csd")) {
      assertThat(DeviceCatalog.load(name))
          .allSatisfy(d -> assertThat(d.monthly() || !d.access().free()).isFalse());
    }
  }

  @Test
  void monthlyPricesAreCheckedAndNotMixedWithPricesPaidOnce() {
    assertThatThrownBy(
            () ->
                DeviceConfigParser.parseCatalog(
                    "mine.toml",
                    """
                    [[device]]
                    id = "x"
                    stream = "80 MB/s"
                    read = "1 GB/s"
                    codec = "zstd"
                    cost_per_gb = "1 ct"
                    cost_per_gb_month = "1 ct"
                    source = "s"
                    [[device]]
                    id = "y"
                    read = "1 GB/s"
                    codec = "zstd"
                    cost_per_gb = "1 ct"
                    cost_per_gb_retrieved = "1 ct"
                    source = "s"
                    """))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "device 'x' field 'cost_per_gb_month': the device also has cost_per_gb; give one"
                + " price per GB")
        .hasMessageContaining("device 'x' field 'stream': the device also has read; give read")
        .hasMessageContaining(
            "mine.toml:14: device 'y' field 'cost_per_gb_retrieved': requests and retrieval are"
                + " billed per month, so the device's storage must be too");
    List<CatalogDevice> s3 =
        DeviceConfigParser.parseCatalog(
            "mine.toml",
            """
            [[device]]
            id = "s3"
            stream = "50 MB/s"
            threads = 4
            seek = "20 ms"
            codec = "zstd"
            cost_per_gb_month = "0.02 USD"
            cost_per_1000_requests = "0.0004 USD"
            source = "s"
            """);
    assertThat(s3.get(0).read().megabytesPerSecond()).isCloseTo(200, within(1e-9));
    assertThat(s3.get(0).access().perGbRetrieved().cents()).isZero();
    assertThatThrownBy(() -> DeviceCatalog.load("table1,aws"))
        .hasMessage(
            "catalogue table1,aws prices device 's3-standard' per GB-month (cost_per_gb_month)"
                + " but device 'nvme' per GB once (cost_per_gb); a budget is either money once or"
                + " money per month: combine catalogues priced alike");
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
        .hasMessage(
            "no catalogue 'nope': not a file, and not a built-in one (table1, ebs, csd, aws)");
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

  @Test
  void awsDevicesShareTheInstancesNetworkAndEbsLinks() {
    List<CatalogDevice> devices = DeviceCatalog.load("aws");
    Link network = new Link("network", Bandwidth.parse("1.5625 GB/s"));
    Link ebs = new Link("ebs", Bandwidth.parse("1.25 GB/s"));
    assertThat(devices.subList(0, 5)).allSatisfy(d -> assertThat(d.link()).contains(network));
    assertThat(devices.subList(5, 9)).allSatisfy(d -> assertThat(d.link()).contains(ebs));
    assertThat(devices.get(9).link()).isEmpty();
    // The other catalogues name no link: Eq. 3 as before.
    for (String name : List.of("table1", "ebs", "csd")) {
      assertThat(DeviceCatalog.load(name)).allSatisfy(d -> assertThat(d.link()).isEmpty());
    }
  }

  @Test
  void aLinkMustBeDeclaredOnceWithARate() {
    assertThatThrownBy(
            () ->
                DeviceConfigParser.parseCatalog(
                    "mine.toml",
                    """
                    [[link]]
                    id = "net"
                    read = "fast"

                    [[link]]
                    id = "ebs"
                    read = "1 GB/s"
                    speed = "2 GB/s"

                    [[device]]
                    id = "s3"
                    read = "1 GB/s"
                    codec = "zstd"
                    cost_per_gb = "10 ct"
                    source = "a data sheet"
                    link = "network"
                    """))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("mine.toml:3")
        .hasMessageContaining("bad value \"fast\" for link \"net\"")
        .hasMessageContaining("mine.toml:8")
        .hasMessageContaining("unknown field of link \"ebs\"; allowed: id, read")
        .hasMessageContaining(
            "mine.toml:16: device 's3' field 'link': bad value \"network\": no [[link]] has this"
                + " id; links: ebs, or remove link");
  }
}

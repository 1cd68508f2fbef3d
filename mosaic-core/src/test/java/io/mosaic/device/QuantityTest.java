package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QuantityTest {
  @Test
  void parsesSizesTheWayPeopleWriteThem() {
    assertThat(ByteSize.parse("60 GB").bytes()).isEqualTo(60_000_000_000L);
    assertThat(ByteSize.parse("60GB").bytes()).isEqualTo(60_000_000_000L);
    assertThat(ByteSize.parse("1.5 TB").bytes()).isEqualTo(1_500_000_000_000L);
    assertThat(ByteSize.parse("512 MiB").bytes()).isEqualTo(512L * 1024 * 1024);
    assertThat(ByteSize.parse("2 gib").bytes()).isEqualTo(2L << 30);
    assertThat(ByteSize.parse("60 GB")).hasToString("60 GB");
  }

  @Test
  void parsesRatesLatenciesAndCosts() {
    assertThat(Bandwidth.parse("1.2 GB/s").bytesPerSecond()).isEqualTo(1.2e9);
    assertThat(Bandwidth.parse("230 MB/s").megabytesPerSecond()).isEqualTo(230);
    assertThat(Bandwidth.parse("64 MiB/s").bytesPerSecond()).isEqualTo(64.0 * 1024 * 1024);
    assertThat(Bandwidth.parse("2.1 GB/s")).hasToString("2.1 GB/s");
    assertThat(Latency.parse("8 ms").nanos()).isEqualTo(8_000_000);
    assertThat(Latency.parse("120 us").nanos()).isEqualTo(120_000);
    assertThat(Latency.parse("0.5 s").nanos()).isEqualTo(500_000_000);
    assertThat(Cost.parse("60 ct").cents()).isEqualTo(60);
    assertThat(Cost.parse("0.6 EUR").cents()).isEqualTo(60);
    assertThat(Cost.parse("3").cents()).isEqualTo(3);
  }

  @Test
  void namesTheUnitTypoAndTheAllowedUnits() {
    assertThatThrownBy(() -> ByteSize.parse("60 GG"))
        .hasMessage(
            "unknown unit 'GG'; allowed: B, kB, KiB, MB, MiB, GB, GiB, TB, TiB, PB (e.g. \"60 GB\")");
    assertThatThrownBy(() -> Bandwidth.parse("1.2 GB"))
        .hasMessageStartingWith("unknown unit 'GB'; allowed: B/s, kB/s");
    assertThatThrownBy(() -> ByteSize.parse("60"))
        .hasMessageStartingWith("missing unit; write it like \"60 GB\"");
    assertThatThrownBy(() -> Latency.parse("fast"))
        .hasMessage("expected a number and a unit, like \"8 ms\"");
    assertThatThrownBy(() -> ByteSize.parse("-5 GB")).hasMessage("must not be negative");
    assertThatThrownBy(() -> Bandwidth.parse("0 MB/s")).hasMessage("must be greater than zero");
  }
}

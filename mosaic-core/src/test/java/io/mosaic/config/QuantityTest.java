package io.mosaic.config;

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

  @Test
  void refusesNumbersOutsideSaneRanges() {
    assertThatThrownBy(() -> ByteSize.parse("1e400 GB"))
        .hasMessage("too large; a size must be at most 1000 PB (1 EB)");
    assertThatThrownBy(() -> ByteSize.parse("9999999999999999999999 PB"))
        .hasMessage("too large; a size must be at most 1000 PB (1 EB)");
    assertThat(ByteSize.parse("1000 PB").bytes()).isEqualTo(1_000_000_000_000_000_000L);
    assertThatThrownBy(() -> Bandwidth.parse("1e-300 B/s"))
        .hasMessage("too slow; a rate must be at least 1 B/s");
    assertThatThrownBy(() -> Bandwidth.parse("2 PB/s"))
        .hasMessage("too fast; a rate must be at most 1 PB/s");
    assertThat(Bandwidth.parse("1 B/s").bytesPerSecond()).isEqualTo(1);
    assertThatThrownBy(() -> Latency.parse("1e300 s"))
        .hasMessage("too long; a latency must be at most 1 hour (3600 s)");
    assertThat(Latency.parse("3600 s").seconds()).isEqualTo(3600);
    assertThatThrownBy(() -> Cost.parse("1e400"))
        .hasMessage("too large; a cost must be at most 1e15 ct");
  }

  @Test
  void costsAreInCentsAndCurrencySymbolsAreRefused() {
    assertThat(Cost.parse("0.6 USD").cents()).isEqualTo(60);
    assertThatThrownBy(() -> Cost.parse("60 €"))
        .hasMessageStartingWith(
            "unknown currency unit '€'; allowed: ct, EUR, USD or a bare number");
    assertThatThrownBy(() -> Cost.parse("0.6 $"))
        .hasMessageContaining("unknown currency unit '$'")
        .hasMessageEndingWith(
            "the planner keeps costs in cents (ct), and EUR and USD count as 100 ct each,"
                + " without exchange rates");
  }

  @Test
  void codecNamesAreExact() {
    assertThat(Codec.fromConfigName("ZSTD")).contains(Codec.ZSTD);
    assertThat(Codec.fromConfigName("lz4 ")).isEmpty();
    assertThat(Codec.fromConfigName("lz4\0")).isEmpty();
  }
}

package io.mosaic.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class DistinctSketchTest {
  private static DistinctSketch of(long from, long to) {
    DistinctSketch s = new DistinctSketch();
    DistinctSketch.Hasher h = new DistinctSketch.Hasher();
    for (long v = from; v < to; v++) {
      s.update(h.int64(v));
    }
    return s;
  }

  @Test
  void estimatesAreCloseFromOneValueToMillions() {
    assertThat(new DistinctSketch().estimate()).isZero();
    for (long n : new long[] {1, 3, 25, 1_000, 20_000, 150_000, 2_000_000}) {
      // 1.6 % relative standard error; 5 % is three of them.
      assertThat(of(0, n).estimate()).as("n = %d", n).isCloseTo(n, within(Math.max(0.5, n * 0.05)));
    }
  }

  @Test
  void duplicatesCountOnceAndMergingIsTheUnion() {
    DistinctSketch a = of(0, 60_000);
    DistinctSketch again = of(0, 60_000);
    a.merge(again);
    assertThat(a).isEqualTo(of(0, 60_000));
    DistinctSketch b = of(40_000, 100_000);
    a.merge(b);
    assertThat(a).isEqualTo(of(0, 100_000));
    assertThat(a.estimate()).isCloseTo(100_000, within(5_000.0));
  }

  @Test
  void roundTripsThroughTheManifestFormCompactly() {
    for (long n : new long[] {0, 3, 1_000_000}) {
      DistinctSketch s = of(0, n);
      String text = s.toBase64();
      assertThat(DistinctSketch.fromBase64(text)).isEqualTo(s);
      assertThat(text.length()).as("n = %d", n).isLessThan(n < 1_000 ? 100 : 4_500);
    }
  }

  @Test
  void damagedSketchesAreRefusedSayingWhy() {
    String good = of(0, 10_000).toBase64();
    byte[] bytes = Base64.getDecoder().decode(good);
    assertThatThrownBy(() -> DistinctSketch.fromBase64("not base64!"))
        .isInstanceOf(MosaicException.class)
        .hasMessageStartingWith("is not base64");
    assertThatThrownBy(() -> DistinctSketch.fromBase64("AAAA"))
        .hasMessage("is not a distinct-value sketch of format 1 (3 bytes)");
    bytes[1] = 30;
    assertThatThrownBy(() -> DistinctSketch.fromBase64(Base64.getEncoder().encodeToString(bytes)))
        .hasMessage("has 2^30 registers, not 2^4 to 2^16");
    byte[] junk = "\u0001\u000cjunk".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> DistinctSketch.fromBase64(Base64.getEncoder().encodeToString(junk)))
        .hasMessageStartingWith("is damaged: ");
    byte[] cut = Base64.getDecoder().decode(good);
    String truncated =
        Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(cut, cut.length - 10));
    assertThatThrownBy(() -> DistinctSketch.fromBase64(truncated))
        .hasMessage("is damaged: its registers do not inflate to exactly 4096 bytes");
  }
}

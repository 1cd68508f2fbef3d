package io.mosaic.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: hundreds of semantically wrong manifests with correct checksums (from {@link
 * ManifestMutations}); each is refused with {@link CorruptTableException} naming the manifest or
 * the segment file, or (when the change is harmless) reads back exactly the original rows. Never a
 * wrong answer, another exception or a hang.
 */
class ManifestMutationsTest {
  @TempDir Path dir;

  @Test
  void everyVariantIsRefusedOrReadsTheOriginalRows() throws IOException {
    try (ManifestProbe probe = new ManifestProbe(dir)) {
      assertThat(probe.scanAll()).isEqualTo(probe.fixture.rows);
      assertThat(probe.read().rows()).isEqualTo(probe.fixture.rows);
      long start = System.nanoTime();
      List<ManifestMutations.Variant> variants = ManifestMutations.of(probe.original);
      int refused = 0;
      int bySegmentCheck = 0;
      List<String> harmless = new ArrayList<>();
      List<String> wrong = new ArrayList<>();
      List<String> unnamed = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      String table = probe.table().name();
      for (ManifestMutations.Variant v : variants) {
        ManifestProbe.Outcome outcome;
        try {
          outcome = probe.read(v.file());
        } catch (RuntimeException | AssertionError e) {
          failed.add(v.name() + ": " + e);
          continue;
        }
        if (outcome.refused() != null) {
          refused++;
          String message = outcome.refused().getMessage();
          boolean names =
              message.contains(probe.manifest.toString())
                  || (message.contains("of table " + table) && message.contains(".parquet"));
          if (!names) {
            unnamed.add(v.name() + ": " + message);
          }
          if (message.contains(" does not match manifest v")) {
            bySegmentCheck++;
          }
        } else if (outcome.rows().equals(probe.fixture.rows)) {
          harmless.add(v.name());
        } else {
          wrong.add(v.name());
        }
      }
      System.out.printf(
          "%d manifest variants in %d ms: %d refused (%d by the segment check), %d harmless %s%n",
          variants.size(),
          (System.nanoTime() - start) / 1_000_000,
          refused,
          bySegmentCheck,
          harmless.size(),
          harmless);
      failed.forEach(System.out::println);
      wrong.forEach(System.out::println);
      unnamed.forEach(System.out::println);
      assertThat(failed).as("variants that failed otherwise or hung").isEmpty();
      assertThat(wrong).as("variants read as other rows").isEmpty();
      assertThat(unnamed).as("refusals that name neither manifest nor segment").isEmpty();
      assertThat(variants).hasSizeGreaterThanOrEqualTo(300);
      assertThat(refused + harmless.size()).isEqualTo(variants.size());
      // Both layers are exercised: the checks on load and the segment footers' check.
      assertThat(bySegmentCheck).isGreaterThan(100);
      assertThat(refused - bySegmentCheck).isGreaterThan(300);
      assertThat(probe.read().rows()).isEqualTo(probe.fixture.rows);
    }
  }
}

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
        } else if (sameWidened(probe.fixture.rows, outcome.rows())) {
          // A declared type the stored one widens to (ColumnType#widensFrom) reads the same
          // values in it, as after an ALTER COLUMN ... TYPE.
          harmless.add(v.name() + " (widened)");
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

  /** Whether {@code read} holds {@code original}'s values, some of them in wider types. */
  private static boolean sameWidened(List<List<Object>> original, List<List<Object>> read) {
    if (original.size() != read.size()) {
      return false;
    }
    for (int r = 0; r < original.size(); r++) {
      List<Object> a = original.get(r);
      List<Object> b = read.get(r);
      if (a.size() != b.size()) {
        return false;
      }
      for (int c = 0; c < a.size(); c++) {
        Object x = a.get(c);
        Object y = b.get(c);
        boolean same =
            java.util.Objects.equals(x, y)
                || (x instanceof Float f && y instanceof Double d && Double.compare(f, d) == 0)
                || ((x instanceof Byte || x instanceof Short || x instanceof Integer)
                    && (y instanceof Short || y instanceof Integer || y instanceof Long)
                    && ((Number) x).longValue() == ((Number) y).longValue());
        if (!same) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Segments exchanging row groups, devices, paths or columns, and a segment named on the wrong
   * device ({@link ManifestMutations#exchanges}): the scan path and the whole-segment path give the
   * original rows or a refusal naming the segment, and gc run with the variant as the newest
   * version either collects or refuses, but never deletes a file the variant or the true version
   * names.
   */
  @Test
  void segmentsExchangingPlacesReadRightOrAreRefusedAndGcKeepsEveryFile() throws IOException {
    try (ManifestProbe probe = new ManifestProbe(dir)) {
      Manifest original = probe.table().latest();
      List<Path> files =
          original.segments().stream()
              .map(s -> probe.fixture.pool.device(s.device()).resolve(s.path()))
              .toList();
      List<ManifestMutations.Variant> variants = ManifestMutations.exchanges(probe.original);
      List<String> wrong = new ArrayList<>();
      int refused = 0;
      int gcRefused = 0;
      long start = System.nanoTime();
      for (ManifestMutations.Variant v : variants) {
        for (ManifestProbe.Outcome outcome :
            List.of(probe.read(v.file()), probe.readWhole(v.file()))) {
          if (outcome.refused() != null) {
            refused++;
            String message = outcome.refused().getMessage();
            if (!message.contains(".parquet") && !message.contains(probe.manifest.toString())) {
              wrong.add(v.name() + ": refusal names neither segment nor manifest: " + message);
            }
          } else if (!outcome.rows().equals(probe.fixture.rows)) {
            wrong.add(v.name() + ": other rows");
          }
        }
        RuntimeException gc = probe.collect(v.file());
        if (gc != null) {
          gcRefused++;
          // Refused: the manifest on load (before gc looks at any file), or by gc's own checks.
          if (!(gc instanceof CorruptTableException)) {
            wrong.add(v.name() + ": gc failed otherwise: " + gc);
          }
        }
        if (!files.stream().allMatch(java.nio.file.Files::exists)) {
          wrong.add(v.name() + ": gc deleted a segment file");
          break;
        }
      }
      System.out.printf(
          "%d exchange variants in %d ms: %d reads refused, gc refused %d%n",
          variants.size(), (System.nanoTime() - start) / 1_000_000, refused, gcRefused);
      wrong.forEach(System.out::println);
      assertThat(wrong).isEmpty();
      assertThat(variants).hasSizeGreaterThan(40);
      assertThat(gcRefused).isGreaterThan(30);
      assertThat(probe.read().rows()).isEqualTo(probe.fixture.rows);
    }
  }
}

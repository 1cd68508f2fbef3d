package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link CorruptInputCorpus}: a random sample in CI ({@code -Dmosaic.corpus.cases=N}, default
 * 150), every case with {@code -Dmosaic.corpus.cases=all} (docs/benchmarks.md has the figures).
 */
class CorruptInputCorpusTest {
  @TempDir Path dir;

  @Test
  void everyDamagedInputGivesItsRowsOrAClearErrorNamingTheFile() throws Exception {
    long seed = Long.getLong("mosaic.corpus.seed", System.nanoTime());
    String size = System.getProperty("mosaic.corpus.cases", "150");
    CorruptInputCorpus corpus = CorruptInputCorpus.create(dir.resolve("template"));
    List<CorruptInputCorpus.Case> all = corpus.cases(seed);
    assertThat(all.size()).as("cases in the corpus").isGreaterThanOrEqualTo(1000);
    List<CorruptInputCorpus.Case> run = new ArrayList<>(all);
    if (!size.equals("all")) {
      Collections.shuffle(run, new Random(seed));
      run = new ArrayList<>(run.subList(0, Math.min(run.size(), Integer.parseInt(size))));
      for (CorruptInputCorpus.Case c : all) {
        if (c.kind().startsWith("root-") && !run.contains(c)) {
          run.add(c); // few, and each a way to lose the original's data: always run
        }
      }
    }
    Map<String, Map<String, Integer>> verdicts = new TreeMap<>();
    List<String> bad = new ArrayList<>();
    ExecutorService pool = CorruptInputCorpus.daemonPool();
    try {
      for (CorruptInputCorpus.Case c : run) {
        CorruptInputCorpus.Outcome o = corpus.run(c, dir.resolve("case"), pool);
        verdicts
            .computeIfAbsent(c.kind(), k -> new TreeMap<>())
            .merge(o.verdict(), 1, Integer::sum);
        if (!o.ok()) {
          bad.add(c.name() + ": " + o.verdict() + ": " + o.detail());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    String summary =
        String.format(
            "corrupt-input corpus, seed %d: %d of %d cases run; per kind: %s",
            seed, run.size(), all.size(), verdicts);
    System.out.println(summary);
    bad.forEach(System.out::println);
    assertThat(bad).as(summary).isEmpty();
  }

  /**
   * Every case of the class of segments exchanging places or named on the wrong device, each
   * followed by {@code gc --grace PT0S}: rows right or a clear error, and no segment file deleted.
   */
  @Test
  void segmentsExchangingPlacesGiveRowsOrAClearErrorAndGcKeepsTheirFiles() throws Exception {
    CorruptInputCorpus corpus = CorruptInputCorpus.create(dir.resolve("template"));
    List<CorruptInputCorpus.Case> run =
        corpus.cases(1).stream().filter(c -> c.kind().equals(CorruptInputCorpus.EXCHANGE)).toList();
    assertThat(run).hasSizeGreaterThanOrEqualTo(20);
    Map<String, Integer> verdicts = new TreeMap<>();
    List<String> bad = new ArrayList<>();
    ExecutorService pool = CorruptInputCorpus.daemonPool();
    try {
      for (CorruptInputCorpus.Case c : run) {
        CorruptInputCorpus.Outcome o = corpus.run(c, dir.resolve("case"), pool);
        verdicts.merge(o.verdict(), 1, Integer::sum);
        if (!o.ok()) {
          bad.add(c.name() + ": " + o.verdict() + ": " + o.detail());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.println("segment exchanges, then gc: " + run.size() + " cases: " + verdicts);
    bad.forEach(System.out::println);
    assertThat(bad).isEmpty();
  }
}

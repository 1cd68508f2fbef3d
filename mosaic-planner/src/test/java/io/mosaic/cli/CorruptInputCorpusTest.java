package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
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
    long seed = CorruptInputCorpus.seed();
    CorruptInputCorpus corpus = CorruptInputCorpus.create(dir.resolve("template"));
    List<CorruptInputCorpus.Case> all = corpus.cases(seed);
    assertThat(all.size()).as("cases in the corpus").isGreaterThanOrEqualTo(1000);
    List<CorruptInputCorpus.Case> run = CorruptInputCorpus.sample(all, seed, 150);
    CorruptInputCorpus.Tally tally = corpus.runAll(run, dir.resolve("cases"), corpus::cli, d -> {});
    String summary = tally.summary("the CLI", seed, run.size(), all.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
  }
}

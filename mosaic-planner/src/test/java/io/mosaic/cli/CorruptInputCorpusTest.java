package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
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
    List<CorruptInputCorpus.Case> run = new ArrayList<>(CorruptInputCorpus.sample(all, seed, 150));
    for (CorruptInputCorpus.Case c : all) {
      if (c.kind().startsWith("root-") && !run.contains(c)) {
        run.add(c); // few, and each a way to lose the original's data: always run
      }
    }
    CorruptInputCorpus.Tally tally = corpus.runAll(run, dir.resolve("cases"), corpus::cli, d -> {});
    String summary = tally.summary("the CLI", seed, run.size(), all.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
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
    CorruptInputCorpus.Tally tally = corpus.runAll(run, dir.resolve("cases"), corpus::cli, d -> {});
    String summary = tally.summary("the CLI, segment exchanges then gc", 1, run.size(), run.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
  }
}

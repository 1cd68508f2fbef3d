package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.Storage.BlockHosts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a split's hosts are ranked from the blocks of the files it reads
 * (docs/distributed-storage.md, "Locality"): by the bytes of the read ranges each host holds, at
 * most three.
 */
class SplitHostsTest {
  // A file of three 100-byte blocks, each on two of four hosts.
  private static final List<BlockHosts> FILE =
      List.of(
          new BlockHosts(0, 100, List.of("a", "b")),
          new BlockHosts(100, 100, List.of("b", "c")),
          new BlockHosts(200, 100, List.of("c", "d")));

  @Test
  void onlyTheBytesOfTheRangeReadCount() {
    Map<String, Long> bytes = new LinkedHashMap<>();
    SplitHosts.add(bytes, FILE, 150, 230);
    assertThat(bytes).containsExactlyInAnyOrderEntriesOf(Map.of("b", 50L, "c", 80L, "d", 30L));
    assertThat(SplitHosts.rank(bytes)).containsExactly("c", "b", "d");
  }

  @Test
  void hostsAreRankedByBytesOverEveryRangeAndAtMostThreeAreKept() {
    Map<String, Long> bytes = new LinkedHashMap<>();
    SplitHosts.add(bytes, FILE, 0, 120); // a 100, b 120, c 20
    SplitHosts.add(bytes, List.of(new BlockHosts(0, 500, List.of("d", "a"))), 10, 60); // d 50, a 50
    assertThat(bytes)
        .containsExactlyInAnyOrderEntriesOf(Map.of("a", 150L, "b", 120L, "c", 20L, "d", 50L));
    assertThat(SplitHosts.rank(bytes)).containsExactly("a", "b", "d");
  }

  @Test
  void equalHostsAreOrderedByNameAndNoBlocksGiveNoHosts() {
    Map<String, Long> bytes = new LinkedHashMap<>();
    SplitHosts.add(bytes, FILE, 300, 400); // past the end
    SplitHosts.add(bytes, List.of(), 0, 100); // a local file
    assertThat(SplitHosts.rank(bytes)).isEmpty();
    SplitHosts.add(bytes, FILE, 0, 100);
    assertThat(SplitHosts.rank(bytes)).containsExactly("a", "b");
  }
}

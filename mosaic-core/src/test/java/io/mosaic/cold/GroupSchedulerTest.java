package io.mosaic.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.GroupPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The group scheduler's rules (Skipper, VLDB 2016, Section 4.4), and its Figure 12 experiment on
 * virtual time: five clients each running a query ten times, two groups holding two clients' data
 * each and one group a single client's.
 */
class GroupSchedulerTest {
  private static final int SWITCH = 10; // time units per group switch
  private static final int TRANSFER = 1; // per object
  private static final int OBJECTS = 4; // per query: two objects of each of two tables
  private static final int THINK = 2; // a client's processing between its queries

  /** What one run of the Figure 12 experiment gives: per client, the time its last query ended. */
  private record Run(long switches, List<Long> finished, int served, double maxStretch) {}

  private static Run figure12(GroupPolicy policy) {
    int[] groupOf = {0, 0, 1, 1, 2};
    GroupScheduler s = new GroupScheduler(policy, 3);
    int[] done = new int[5];
    int[] left = new int[5];
    long[] finished = new long[5];
    // When each client issues its next query: it processes a result for THINK before the next.
    long[] issueAt = new long[5];
    long[] issued = new long[5];
    double maxStretch = 0;
    // A query alone on the device: at most one switch, then its transfers (Skipper's stretch).
    double alone = SWITCH + OBJECTS * TRANSFER;
    Map<Object, Integer> seen = new HashMap<>();
    long now = 0;
    int served = 0;
    while (true) {
      for (int c = 0; c < 5; c++) {
        if (issueAt[c] >= 0 && issueAt[c] <= now) {
          issue(s, c, done[c], groupOf[c]);
          left[c] = OBJECTS;
          issued[c] = issueAt[c];
          issueAt[c] = -1;
        }
      }
      GroupScheduler.Served next = s.next();
      if (next == null) {
        long wake = Long.MAX_VALUE;
        for (long t : issueAt) {
          wake = t >= 0 ? Math.min(wake, t) : wake;
        }
        if (wake == Long.MAX_VALUE) {
          break;
        }
        now = wake;
        continue;
      }
      now += (next.switched() ? SWITCH : 0) + TRANSFER;
      served++;
      assertThat(seen.merge(next.request().object(), 1, Integer::sum)).isEqualTo(1);
      assertThat(next.request().group()).isEqualTo(s.activeGroup());
      int c = Integer.parseInt(next.request().query().substring(1, 2));
      if (--left[c] == 0) {
        maxStretch = Math.max(maxStretch, (now - issued[c]) / alone);
        if (++done[c] < 10) {
          issueAt[c] = now + THINK;
        } else {
          finished[c] = now;
        }
      }
    }
    List<Long> f = new ArrayList<>();
    for (long x : finished) {
      f.add(x);
    }
    return new Run(s.switches(), f, served, maxStretch);
  }

  private static void issue(GroupScheduler s, int client, int run, int group) {
    String query = "c" + client + "-q" + run;
    for (String table : List.of("lineitem", "orders")) {
      for (int o = 0; o < OBJECTS / 2; o++) {
        s.submit(new ColdRequest(query, group, table, query + "/" + table + "/" + o));
      }
    }
  }

  @Test
  void rankBalancesMaxQueriesEfficiencyAndFcfsFairness() {
    Map<GroupPolicy, Run> runs = new LinkedHashMap<>();
    for (GroupPolicy p : GroupPolicy.values()) {
      runs.put(p, figure12(p));
      assertThat(runs.get(p).served()).as(p.configName()).isEqualTo(5 * 10 * OBJECTS);
    }
    Run fcfs = runs.get(GroupPolicy.FCFS);
    Run max = runs.get(GroupPolicy.MAX_QUERIES);
    Run rank = runs.get(GroupPolicy.RANK);
    runs.forEach(
        (p, r) ->
            System.out.printf(
                "%-11s %3d switches, clients finished at %s, max stretch %.2f%n",
                p.configName(), r.switches(), r.finished(), r.maxStretch()));
    // Max-Queries: fewest switches, but the lonely client (group 2) finishes last and its queries
    // wait longest. FCFS: most switches. Rank in between on both (the paper's Figure 12).
    long othersDone = max.finished().subList(0, 4).stream().max(Long::compare).orElseThrow();
    assertThat(max.finished().get(4)).isGreaterThan(othersDone);
    assertThat(max.switches()).isLessThanOrEqualTo(rank.switches());
    assertThat(rank.switches()).isLessThan(fcfs.switches());
    assertThat(rank.maxStretch()).isLessThan(max.maxStretch() / 2);
  }

  @Test
  void aRoundServesWhatItsGroupHadEvenlyAcrossRelations() {
    GroupScheduler s = new GroupScheduler(GroupPolicy.RANK, 2);
    for (int i = 0; i < 3; i++) {
      s.submit(new ColdRequest("q", 0, "A", "A" + i));
    }
    for (int i = 0; i < 3; i++) {
      s.submit(new ColdRequest("q", 0, "B", "B" + i));
    }
    s.submit(new ColdRequest("p", 1, "C", "C0"));
    List<Object> order = new ArrayList<>();
    List<Boolean> switched = new ArrayList<>();
    GroupScheduler.Served n;
    while ((n = s.next()) != null) {
      order.add(n.request().object());
      switched.add(n.switched());
      if (order.size() == 2) {
        // Arriving for the active group during its round: it waits for a later round, and p has
        // waited longer.
        s.submit(new ColdRequest("r", 0, "D", "D0"));
      }
    }
    assertThat(order).containsExactly("A0", "B0", "A1", "B1", "A2", "B2", "C0", "D0");
    assertThat(switched).containsExactly(true, false, false, false, false, false, true, true);
    assertThat(s.switches()).isEqualTo(3);
    assertThat(s.isEmpty()).isTrue();
  }

  @Test
  void rankIsEquationOne() {
    // Group 0: two queries that have waited 0 switches; group 1: one query that has waited 2.
    GroupScheduler s = new GroupScheduler(GroupPolicy.RANK, 3);
    s.submit(new ColdRequest("lonely", 1, "t", "l0"));
    s.submit(new ColdRequest("x", 2, "t", "x0"));
    s.submit(new ColdRequest("y", 0, "t", "y0"));
    // First switch: R(1) = 1, R(2) = 1, R(0) = 1, ties go to the oldest query: group 1.
    assertThat(s.next().request().object()).isEqualTo("l0");
    s.submit(new ColdRequest("lonely", 1, "t", "l1"));
    s.submit(new ColdRequest("y2", 0, "t", "y1"));
    // Next round: R(0) = 2 queries + 1 (y waited one switch) = 3, R(1) = 1 + 0 (lonely was just
    // served), R(2) = 1 + 1 = 2: group 0.
    assertThat(s.next().request().group()).isEqualTo(0);
    assertThat(s.next().request().group()).isEqualTo(0);
    // Then R(1) = 1 + 1 = 2 against R(2) = 1 + 2 = 3: x has waited longest.
    assertThat(s.next().request().object()).isEqualTo("x0");
    assertThat(s.next().request().object()).isEqualTo("l1");
    assertThat(s.next()).isNull();
  }

  @Test
  void badInputNamesTheFix() {
    assertThatThrownBy(() -> new GroupScheduler(GroupPolicy.RANK, 0))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("give at least 1");
    GroupScheduler s = new GroupScheduler(GroupPolicy.FCFS, 4);
    assertThatThrownBy(() -> s.submit(new ColdRequest("q", 4, "t", "o")))
        .hasMessageContaining("disk group 4; the device has groups 0 to 3");
    assertThat(GroupPolicy.parse("Max-Queries")).isEqualTo(GroupPolicy.MAX_QUERIES);
    assertThatThrownBy(() -> GroupPolicy.parse("sjf"))
        .hasMessageContaining("use one of fcfs, max-queries, rank");
  }
}

package io.mosaic.cold;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.GroupPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher runs reads in the order its scheduler decided them, whatever its threads do: the
 * device switches disk groups as often as the scheduler says (docs/cold-storage.md).
 */
class ColdDispatcherTest {

  @Test
  void aReadTakenAfterAPendingSwitchWaitsForIt() throws Exception {
    List<Integer> order = new ArrayList<>();
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    CountDownLatch allDone = new CountDownLatch(3);
    List<Throwable> uncaught = new ArrayList<>();
    try (ColdDispatcher d = new ColdDispatcher("d", GroupPolicy.RANK, 3, 2, uncaught::add)) {
      d.execute(
          "q1",
          0,
          "t.a",
          "scan1",
          () -> {
            record(order, 0);
            firstRunning.countDown();
            await(releaseFirst);
            allDone.countDown();
          });
      assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
      // The second thread takes this one: a switch to group 1, which waits for group 0's read.
      d.execute("q2", 1, "t.b", "scan2", () -> read(order, 1, allDone));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (d.switches() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(d.switches()).as("the switch to group 1 is decided").isEqualTo(2);
      // Group 0 again: the scheduler decides it after group 1, so the device must see it after.
      d.execute("q3", 0, "t.c", "scan3", () -> read(order, 0, allDone));
      releaseFirst.countDown();
      assertThat(allDone.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(uncaught).isEmpty();
      synchronized (order) {
        assertThat(order).containsExactly(0, 1, 0);
        long deviceSwitches = 0;
        for (int i = 0; i < order.size(); i++) {
          deviceSwitches += i == 0 || !order.get(i).equals(order.get(i - 1)) ? 1 : 0;
        }
        assertThat(deviceSwitches).isEqualTo(d.switches());
      }
    }
  }

  private static void read(List<Integer> order, int group, CountDownLatch done) {
    record(order, group);
    done.countDown();
  }

  private static void record(List<Integer> order, int group) {
    synchronized (order) {
      order.add(group);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

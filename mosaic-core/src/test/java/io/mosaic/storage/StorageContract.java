package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Storage} backend promises (its javadoc; docs/format.md, "Storage backends"),
 * run against each backend by a subclass that says where a fresh, empty root is.
 */
abstract class StorageContract {
  /** Larger than a MiniHdfs block, so reads cross block boundaries there. */
  static final int BIG = (int) (MiniHdfs.BLOCK_SIZE * 5 / 2);

  Storage storage;

  /** A storage on a fresh, empty root. */
  abstract Storage newStorage() throws IOException;

  /** The configuration {@link Storages#open} gets to reopen the root. */
  abstract Configuration conf();

  abstract StorageCapabilities expectedCapabilities();

  @BeforeEach
  void open() throws IOException {
    storage = newStorage();
  }

  @AfterEach
  void close() throws IOException {
    storage.close();
  }

  static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  void write(String key, byte[] content) throws IOException {
    try (OutputStream out = storage.create(key)) {
      out.write(content);
    }
  }

  static byte[] read(Storage s, String key) throws IOException {
    try (Storage.ReadFile f = s.open(key)) {
      ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(f.length()));
      assertThat(f.readFully(buf, 0)).isEqualTo(buf.capacity());
      return buf.array();
    }
  }

  @Test
  void declaresItsCapabilities() {
    assertThat(storage.capabilities()).isEqualTo(expectedCapabilities());
  }

  @Test
  void aMissingFileIsNotThere() throws IOException {
    assertThatThrownBy(() -> storage.open("none")).isInstanceOf(NoSuchFileException.class);
    assertThat(storage.stat("none")).isEmpty();
    assertThat(storage.stat("no/such/file")).isEmpty();
    assertThat(storage.delete("none")).isFalse();
    assertThat(storage.list("none")).isEmpty();
  }

  @Test
  void createWritesAFileThatIsDurableOnClose() throws IOException {
    byte[] content = bytes(BIG, 1);
    write("a/b/c.bin", content);
    assertThat(read(storage, "a/b/c.bin")).isEqualTo(content);
    // Another client of the same root sees it whole.
    try (Storage other = Storages.open(storage.root(), conf())) {
      assertThat(read(other, "a/b/c.bin")).isEqualTo(content);
    }
  }

  @Test
  void createTwiceFailsAndKeepsTheFirst() throws IOException {
    write("f", text("first"));
    assertThatThrownBy(() -> storage.create("f")).isInstanceOf(FileAlreadyExistsException.class);
    assertThat(read(storage, "f")).isEqualTo(text("first"));
  }

  @Test
  void positionalReads() throws IOException {
    byte[] content = bytes(BIG, 2);
    write("r", content);
    try (Storage.ReadFile f = storage.open("r")) {
      assertThat(f.length()).isEqualTo(BIG);
      int pos = (int) MiniHdfs.BLOCK_SIZE - 1000;
      for (ByteBuffer buf : List.of(ByteBuffer.allocate(5000), ByteBuffer.allocateDirect(5000))) {
        assertThat(f.readFully(buf, pos)).isEqualTo(5000);
        buf.flip();
        byte[] got = new byte[5000];
        buf.get(got);
        assertThat(got).isEqualTo(Arrays.copyOfRange(content, pos, pos + 5000));
      }
      // A read into the middle of a buffer leaves what is before it alone.
      ByteBuffer buf = ByteBuffer.allocate(10).position(4);
      assertThat(f.read(buf, 7)).isBetween(1, 6);
      assertThat(buf.array()[0]).isZero();
      assertThat(buf.array()[4]).isEqualTo(content[7]);

      ByteBuffer tail = ByteBuffer.allocate(100);
      assertThat(f.readFully(tail, BIG - 30)).isEqualTo(30);
      assertThat(Arrays.copyOf(tail.array(), 30))
          .isEqualTo(Arrays.copyOfRange(content, BIG - 30, BIG));
      assertThat(f.read(ByteBuffer.allocate(10), BIG)).isEqualTo(-1);
      assertThat(f.read(ByteBuffer.allocate(10), BIG + 5)).isEqualTo(-1);
      assertThat(f.readFully(ByteBuffer.allocate(10), BIG)).isZero();
    }
  }

  @Test
  void createExclusivePublishesOnce() throws IOException {
    storage.createExclusive("v/1", text("one"));
    assertThatThrownBy(() -> storage.createExclusive("v/1", text("other")))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(read(storage, "v/1")).isEqualTo(text("one"));
    assertThat(storage.list("v")).extracting(Storage.FileStatus::name).containsExactly("1");
  }

  @Test
  void createExclusiveRaceHasExactlyOneWholeWinner() throws Exception {
    int racers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    try {
      for (int round = 0; round < 3; round++) {
        String key = "race/v" + round;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
          byte[] content = bytes(100_000 + i, round * 100 + i);
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    try {
                      storage.createExclusive(key, content);
                      return true;
                    } catch (FileAlreadyExistsException e) {
                      return false;
                    }
                  }));
        }
        go.countDown();
        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
          if (results.get(i).get(60, TimeUnit.SECONDS)) {
            winners.add(i);
          }
        }
        assertThat(winners).as("winners of round " + round).hasSize(1);
        int w = winners.get(0);
        assertThat(read(storage, key)).isEqualTo(bytes(100_000 + w, round * 100 + w));
      }
      // The losers' temporary files are gone.
      assertThat(storage.list("race"))
          .extracting(Storage.FileStatus::name)
          .containsExactly("v0", "v1", "v2");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void replaceIsAtomicForReaders() throws Exception {
    byte[] a = new byte[200_000];
    byte[] b = new byte[200_000];
    Arrays.fill(a, (byte) 'a');
    Arrays.fill(b, (byte) 'b');
    storage.replace("hint", a);
    assertThat(read(storage, "hint")).isEqualTo(a);
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> reads =
          pool.submit(
              () -> {
                int n = 0;
                while (!done.get()) {
                  byte[] got = read(storage, "hint");
                  assertThat(Arrays.equals(got, a) || Arrays.equals(got, b))
                      .as("a reader sees the old or the new file whole")
                      .isTrue();
                  n++;
                }
                return n;
              });
      for (int i = 0; i < 30; i++) {
        storage.replace("hint", i % 2 == 0 ? b : a);
      }
      done.set(true);
      assertThat(reads.get(60, TimeUnit.SECONDS)).isPositive();
    } finally {
      pool.shutdownNow();
    }
    assertThat(read(storage, "hint")).isEqualTo(a);
    assertThat(storage.list("")).extracting(Storage.FileStatus::name).containsExactly("hint");
  }

  @Test
  void statOfFilesAndFolders() throws IOException {
    write("d/f", bytes(1234, 3));
    Storage.FileStatus file = storage.stat("d/f").orElseThrow();
    assertThat(file.key()).isEqualTo("d/f");
    assertThat(file.name()).isEqualTo("f");
    assertThat(file.folder()).isFalse();
    assertThat(file.length()).isEqualTo(1234);
    assertThat(file.modifiedMillis()).isPositive();
    Storage.FileStatus folder = storage.stat("d").orElseThrow();
    assertThat(folder.folder()).isTrue();
    assertThat(folder.length()).isZero();
    assertThat(storage.stat("").orElseThrow().folder()).isTrue();
  }

  @Test
  void listGivesTheDirectChildrenByName() throws IOException {
    write("d/b", text("b"));
    write("d/a", text("a"));
    write("d/sub/x", text("x"));
    assertThat(storage.list("d"))
        .extracting(
            Storage.FileStatus::key,
            Storage.FileStatus::name,
            Storage.FileStatus::folder,
            Storage.FileStatus::length)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("d/a", "a", false, 1L),
            org.assertj.core.groups.Tuple.tuple("d/b", "b", false, 1L),
            org.assertj.core.groups.Tuple.tuple("d/sub", "sub", true, 0L));
    assertThat(storage.list("")).extracting(Storage.FileStatus::key).containsExactly("d");
    assertThat(storage.list("d/a")).as("a file has no children").isEmpty();
    assertThat(storage.list("d/missing")).isEmpty();
  }

  @Test
  void deleteFilesAndEmptyFolders() throws IOException {
    write("d/sub/x", text("x"));
    assertThatThrownBy(() -> storage.delete("d/sub"))
        .isInstanceOf(DirectoryNotEmptyException.class);
    assertThat(storage.delete("d/sub/x")).isTrue();
    assertThat(storage.stat("d/sub/x")).isEmpty();
    assertThat(storage.delete("d/sub/x")).isFalse();
    assertThat(storage.delete("d/sub")).isTrue();
    assertThat(storage.list("d")).isEmpty();
  }

  @Test
  void keysAreChecked() {
    for (String bad : List.of("/a", "a/", "a//b", "a/../b", "./a", "..")) {
      List<ThrowingCall> calls =
          List.of(
              () -> storage.open(bad),
              () -> storage.create(bad),
              () -> storage.createExclusive(bad, text("x")),
              () -> storage.replace(bad, text("x")),
              () -> storage.stat(bad),
              () -> storage.list(bad),
              () -> storage.delete(bad));
      for (ThrowingCall call : calls) {
        assertThatThrownBy(call::run)
            .as(bad)
            .isInstanceOfSatisfying(
                MosaicException.class,
                e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT));
      }
    }
  }

  interface ThrowingCall {
    void run() throws Exception;
  }
}

package io.mosaic.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A storage that counts the metadata operations made through it (open, create, createExclusive,
 * replace, stat, list, delete) and passes each to the real one: how the commit protocol's cost is
 * measured (docs/format.md, "Commits without POSIX locks"). Reads of an open file are data, not
 * counted.
 */
public final class CountingStorage implements Storage {
  private final Storage storage;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final java.util.Queue<String> taken = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private volatile java.util.function.Consumer<String> beforeCreateExclusive = key -> {};

  public CountingStorage(Storage storage) {
    this.storage = storage;
  }

  private void tally(String op) {
    counts.computeIfAbsent(op, o -> new AtomicLong()).incrementAndGet();
  }

  /** Operations by name since the last reset, sorted. */
  public Map<String, Long> counts() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  public long total() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public long count(String op) {
    AtomicLong c = counts.get(op);
    return c == null ? 0 : c.get();
  }

  /**
   * The keys whose exclusive create found the name taken since the last call, and forgets them: a
   * commit's lost races (the concurrency harness reports how contested its commits were).
   */
  public List<String> drainTaken() {
    List<String> keys = new java.util.ArrayList<>();
    for (String k = taken.poll(); k != null; k = taken.poll()) {
      keys.add(k);
    }
    return keys;
  }

  public void reset() {
    counts.clear();
  }

  /**
   * Runs {@code hook} with the key before each exclusive create: a test pauses a commit there (by
   * doing what another process would meanwhile) to reach an interleaving on purpose.
   */
  public void beforeCreateExclusive(java.util.function.Consumer<String> hook) {
    this.beforeCreateExclusive = hook;
  }

  @Override
  public URI root() {
    return storage.root();
  }

  @Override
  public StorageCapabilities capabilities() {
    return storage.capabilities();
  }

  @Override
  public ReadFile open(String key) throws IOException {
    tally("open");
    return storage.open(key);
  }

  @Override
  public ReadFile open(String key, long length) throws IOException {
    tally("open");
    return storage.open(key, length);
  }

  /** Counted as an open: one read of a whole file, or of its absence. */
  @Override
  public Optional<byte[]> readIfExists(String key, long max) throws IOException {
    tally("open");
    return storage.readIfExists(key, max);
  }

  @Override
  public OutputStream create(String key) throws IOException {
    tally("create");
    return storage.create(key);
  }

  @Override
  public void createExclusive(String key, byte[] content) throws IOException {
    tally("createExclusive");
    beforeCreateExclusive.accept(key);
    try {
      storage.createExclusive(key, content);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      taken.add(key);
      throw e;
    }
  }

  @Override
  public void replace(String key, byte[] content) throws IOException {
    tally("replace");
    storage.replace(key, content);
  }

  @Override
  public Optional<FileStatus> stat(String key) throws IOException {
    tally("stat");
    return storage.stat(key);
  }

  /** Counted as a stat: the protocol's probes of a name, whichever call the backend answers. */
  @Override
  public boolean isFile(String key) throws IOException {
    tally("stat");
    return storage.isFile(key);
  }

  @Override
  public List<FileStatus> list(String prefix) throws IOException {
    tally("list");
    return storage.list(prefix);
  }

  @Override
  public boolean delete(String key) throws IOException {
    tally("delete");
    return storage.delete(key);
  }

  @Override
  public void close() throws IOException {
    storage.close();
  }
}

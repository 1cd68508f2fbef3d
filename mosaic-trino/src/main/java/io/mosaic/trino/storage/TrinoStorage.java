package io.mosaic.trino.storage;

import io.mosaic.MosaicException;
import io.mosaic.storage.S3StorageClasses;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageCapabilities;
import io.mosaic.storage.StorageKeys;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A folder of a Trino {@link TrinoFileSystem}, so a catalog's own file-system configuration
 * (credentials, endpoints, caching) applies to Mosaic's bytes, as Trino's Iceberg connector reads
 * through it (docs/format.md, "Storage backends").
 *
 * <p>What it guarantees is what the concrete file system does, since {@code TrinoFileSystem}
 * promises little beyond reads and whole-file writes:
 *
 * <ul>
 *   <li>Exclusive create is {@code TrinoOutputFile.createExclusive}, documented as exclusive and
 *       atomic; file systems without it throw {@link UnsupportedOperationException} (Trino 476's
 *       local one; its S3 one with conditional writes, GCS, Azure and memory ones have it). One
 *       probe at {@link #open} finds out, so {@link StorageCapabilities#exclusiveCreate()} is what
 *       the file system does, and {@link #createExclusive} refuses clearly without it: a table
 *       there cannot commit by the lock-free protocol (docs/format.md, "Commits without POSIX
 *       locks").
 *   <li>{@link #replace} is {@code createOrOverwrite}: <b>not atomic</b> in general. Object stores
 *       replace an object whole, but Trino's local file system truncates and rewrites in place, so
 *       a reader there can see a torn file. {@code TrinoFileSystem} has no rename that replaces,
 *       and its {@code renameFile} is neither atomic nor available on object stores, so {@link
 *       StorageCapabilities#renameNoReplace()} is false. {@link StorageCapabilities} has no field
 *       for an atomic replace; this comment is where it is said.
 *   <li>{@link #create} fails on an existing key where the file system's create is exclusive
 *       (local, HDFS); object stores' create overwrites. Its bytes are durable on close as far as
 *       the file system's close makes them: an object store's upload completes there, but Trino's
 *       local file system does not fsync.
 *   <li>No POSIX locks, appends, placement, block hosts or quotas: the interface's defaults.
 *   <li>Folders: {@code TrinoFileSystem} lists files recursively and direct subfolders apart, so
 *       {@link #list} costs a listing of the whole subtree; an empty folder exists only on
 *       hierarchical file systems, and deleting one is a check then a delete, not one step.
 * </ul>
 */
public final class TrinoStorage implements Storage {
  private static final String PROBE_PREFIX = ".tmp-probe-";

  private final TrinoFileSystem fs;
  private final String root;
  private final StorageCapabilities capabilities;

  private TrinoStorage(TrinoFileSystem fs, String root, boolean exclusiveCreate) {
    this.fs = fs;
    this.root = root;
    this.capabilities = new StorageCapabilities(exclusiveCreate, false, false, false, false, false);
  }

  /**
   * The storage of folder {@code root} of {@code fs} ({@code s3://bucket/mosaic/fast}, {@code
   * local:///fast}). Probes once whether the file system creates exclusively: a write and a delete
   * of an empty file under the root where it does, nothing written where it does not.
   */
  public static TrinoStorage open(TrinoFileSystem fs, Location root) throws IOException {
    String r = root.toString().endsWith("/") ? root.toString() : root + "/";
    Location probe = Location.of(r + PROBE_PREFIX + UUID.randomUUID());
    boolean exclusive;
    // Through the catalog's wrappers (tracing, switching by scheme) only a call tells.
    try {
      fs.newOutputFile(probe).createExclusive(new byte[0]);
      exclusive = true;
    } catch (UnsupportedOperationException e) {
      exclusive = false;
    }
    if (exclusive) {
      fs.deleteFile(probe);
    }
    return new TrinoStorage(fs, r, exclusive);
  }

  private Location file(String key) {
    StorageKeys.check(key);
    if (key.isEmpty()) {
      throw MosaicException.invalid("storage key '' is the root folder " + root + ", not a file");
    }
    return Location.of(root + key);
  }

  private Location folder(String key) {
    StorageKeys.check(key);
    return Location.of(key.isEmpty() ? root : root + key + "/");
  }

  private String key(Location location) {
    String s = location.toString();
    if (!s.startsWith(root)) {
      throw new IllegalStateException(location + " is not below " + root);
    }
    String key = s.substring(root.length());
    return key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
  }

  @Override
  public URI root() {
    return URI.create(root);
  }

  @Override
  public StorageCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public ReadFile open(String key) throws IOException {
    TrinoInputFile in = fs.newInputFile(file(key));
    TrinoInput input;
    long length;
    try {
      length = in.length();
      input = in.newInput();
    } catch (FileNotFoundException e) {
      throw missing(key, e);
    }
    return new TrinoReadFile(input, length, root + key);
  }

  /** With the length known, Trino's file system asks the store for nothing before the read. */
  @Override
  public ReadFile open(String key, long length) throws IOException {
    try {
      return new TrinoReadFile(fs.newInputFile(file(key), length).newInput(), length, root + key);
    } catch (FileNotFoundException e) {
      throw missing(key, e);
    }
  }

  /** One GET on S3: the stream's first read is the request, a missing key fails it. */
  @Override
  public Optional<byte[]> readIfExists(String key, long max) throws IOException {
    try (java.io.InputStream in = fs.newInputFile(file(key)).newStream()) {
      byte[] bytes = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
      if (bytes.length > max) {
        throw new IOException(
            root + key + " has more than the " + max + " bytes allowed for a whole read");
      }
      return Optional.of(bytes);
    } catch (FileNotFoundException | NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw archivedOr(root + key, e);
    }
  }

  /**
   * S3's refusal to GET an object in an archive class (InvalidObjectState) as the error that names
   * the restore, as {@code HadoopStorage} gives it for S3A; any other failure as it is.
   */
  private static IOException archivedOr(String where, IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3
          && s3.awsErrorDetails() != null
          && "InvalidObjectState".equals(s3.awsErrorDetails().errorCode())) {
        throw S3StorageClasses.archivedRead(where, e);
      }
    }
    if (S3StorageClasses.isArchivedRead(e)) {
      throw S3StorageClasses.archivedRead(where, e);
    }
    return e;
  }

  private NoSuchFileException missing(String key, IOException cause) {
    NoSuchFileException e = new NoSuchFileException(root + key);
    e.initCause(cause);
    return e;
  }

  /** Positional reads of a length fixed at open, as HDFS's visible length. */
  private record TrinoReadFile(TrinoInput input, long length, String where) implements ReadFile {
    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      if (position >= length) {
        return -1;
      }
      return readFully(dst, position);
    }

    @Override
    public int readFully(ByteBuffer dst, long position) throws IOException {
      int n = (int) Math.max(0, Math.min(dst.remaining(), length - position));
      if (n == 0) {
        return 0;
      }
      try {
        if (dst.hasArray()) {
          input.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), n);
        } else {
          byte[] bytes = new byte[n];
          input.readFully(position, bytes, 0, n);
          dst.duplicate().put(bytes);
        }
      } catch (IOException e) {
        throw archivedOr(where, e);
      }
      dst.position(dst.position() + n);
      return n;
    }

    @Override
    public void close() throws IOException {
      input.close();
    }
  }

  @Override
  public OutputStream create(String key) throws IOException {
    return fs.newOutputFile(file(key)).create();
  }

  @Override
  public void createExclusive(String key, byte[] content) throws IOException {
    Location location = file(key);
    if (!capabilities.exclusiveCreate()) {
      throw MosaicException.invalid(
          "the Trino file system of "
              + root
              + " cannot create a file exclusively and atomically (TrinoOutputFile.createExclusive),"
              + " which Mosaic's commits there need; keep the table on a file system that can"
              + " (S3 with conditional writes, GCS, Azure) or on HDFS through Mosaic's Hadoop"
              + " storage");
    }
    fs.newOutputFile(location).createExclusive(content);
  }

  @Override
  public void replace(String key, byte[] content) throws IOException {
    fs.newOutputFile(file(key)).createOrOverwrite(content);
  }

  @Override
  public Optional<FileStatus> stat(String key) throws IOException {
    if (isFolder(key)) {
      return Optional.of(new FileStatus(key, name(key), true, 0, 0));
    }
    if (key.isEmpty()) {
      return Optional.empty();
    }
    TrinoInputFile in = fs.newInputFile(file(key));
    try {
      // length first: on a hierarchical file system a folder "exists" as a file too.
      long length = in.length();
      return Optional.of(
          new FileStatus(key, name(key), false, length, in.lastModified().toEpochMilli()));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  private String name(String key) {
    return StorageKeys.name(key.isEmpty() ? root.substring(0, root.length() - 1) : key);
  }

  /** A folder: an existing directory, or on a blob store a prefix with files below it. */
  private boolean isFolder(String key) throws IOException {
    Location dir = folder(key);
    Optional<Boolean> exists = fs.directoryExists(dir);
    if (exists.isPresent()) {
      return exists.get();
    }
    return fs.listFiles(dir).hasNext();
  }

  @Override
  public List<FileStatus> list(String prefix) throws IOException {
    if (!isFolder(prefix)) {
      return List.of();
    }
    Location dir = folder(prefix);
    List<FileStatus> found = new ArrayList<>();
    for (Location sub : fs.listDirectories(dir)) {
      String key = key(sub);
      found.add(new FileStatus(key, StorageKeys.name(key), true, 0, 0));
    }
    // Files come recursively: keep the direct children.
    for (FileIterator it = fs.listFiles(dir); it.hasNext(); ) {
      FileEntry entry = it.next();
      String key = key(entry.location());
      if (StorageKeys.parent(key).equals(prefix)) {
        found.add(fileStatus(key, entry));
      }
    }
    found.sort(Comparator.comparing(FileStatus::name));
    return found;
  }

  private static FileStatus fileStatus(String key, FileEntry entry) {
    return new FileStatus(
        key, StorageKeys.name(key), false, entry.length(), entry.lastModified().toEpochMilli());
  }

  /** One recursive listing, files only. */
  @Override
  public List<FileStatus> walk(String prefix) throws IOException {
    if (!isFolder(prefix)) {
      return List.of();
    }
    List<FileStatus> files = new ArrayList<>();
    for (FileIterator it = fs.listFiles(folder(prefix)); it.hasNext(); ) {
      FileEntry entry = it.next();
      files.add(fileStatus(key(entry.location()), entry));
    }
    return files;
  }

  @Override
  public boolean delete(String key) throws IOException {
    if (isFolder(key)) {
      Location dir = folder(key);
      if (fs.listFiles(dir).hasNext() || !fs.listDirectories(dir).isEmpty()) {
        throw new DirectoryNotEmptyException(root + key);
      }
      fs.deleteDirectory(dir);
      return true;
    }
    if (key.isEmpty() || !fs.newInputFile(file(key)).exists()) {
      return false;
    }
    fs.deleteFile(file(key));
    return true;
  }

  /** One recursive delete of the folder, or of the file at {@code prefix}. */
  @Override
  public boolean deleteTree(String prefix) throws IOException {
    Optional<FileStatus> status = stat(prefix);
    if (status.isEmpty()) {
      return false;
    }
    if (status.get().folder()) {
      fs.deleteDirectory(folder(prefix));
    } else {
      fs.deleteFile(file(prefix));
    }
    return true;
  }

  /** The catalog owns its file system; closing this storage leaves it open. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return root;
  }
}

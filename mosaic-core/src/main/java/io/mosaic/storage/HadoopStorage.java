package io.mosaic.storage;

import io.mosaic.MosaicException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;

/**
 * A folder of a Hadoop {@link FileSystem}: HDFS, and any scheme Hadoop has a file system for
 * (docs/format.md, "Storage backends"). Built by {@link Storages#open}, which also bounds how long
 * an unreachable NameNode is retried.
 *
 * <p>On HDFS the NameNode makes a rename that must not replace atomic, so {@link #createExclusive}
 * writes a temporary file beside the key and renames it with {@link Options.Rename#NONE}: readers
 * see the whole file or none, and exactly one of racing creators wins. HDFS has no hard links and
 * no advisory locks. Positional reads are HDFS preads, which are safe for concurrent use.
 */
public final class HadoopStorage implements Storage {
  private final URI root;
  private final Path rootPath;
  private final Configuration conf;
  private final FileSystem fs;
  private final StorageCapabilities capabilities;

  /**
   * The store takes a create that fails when the key exists in the write itself (an object store
   * with conditional PUTs, S3A): such a store writes an object whole when its stream closes, so
   * {@link #createExclusive} and {@link #replace} are one PUT each, with no temporary file.
   */
  private final boolean conditionalPut;

  private FileContext context;

  /** Connects to the file system of {@code root} and checks that it answers. */
  HadoopStorage(URI root, Configuration conf) throws IOException {
    this.root = root;
    this.rootPath = new Path(root);
    this.conf = conf;
    // An instance of our own, not the shared cache: closing this storage closes only its client.
    this.fs = FileSystem.newInstance(root, conf);
    try {
      // A Rename.NONE whose check and rename the NameNode does in one step (HDFS), or a PUT that
      // the store refuses when the key exists (S3A's If-None-Match: *); other schemes get only
      // what they declare.
      boolean atomicRename = fs instanceof DistributedFileSystem;
      this.conditionalPut =
          !atomicRename
              && fs.hasPathCapability(
                  rootPath, Options.CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE);
      this.capabilities =
          new StorageCapabilities(
              atomicRename || conditionalPut,
              atomicRename,
              false,
              fs.hasPathCapability(rootPath, CommonPathCapabilities.FS_APPEND),
              fs.hasPathCapability(rootPath, CommonPathCapabilities.FS_STORAGEPOLICY),
              false);
      // One call up front, so a wrong address fails here, naming the root, not in a later write.
      Optional<FileStatus> status = stat("");
      if (status.isPresent() && !status.get().folder()) {
        throw MosaicException.invalid(
            "storage root " + root + " is a file; point the URI at a folder");
      }
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  /** The file system below this storage, for tests and tools that inspect it. */
  public FileSystem fileSystem() {
    return fs;
  }

  private Path path(String key) {
    StorageKeys.check(key);
    if (key.isEmpty()) {
      return rootPath;
    }
    // The three-part constructor: a key with ':' in a name stays a path, not a scheme.
    return new Path(root.getScheme(), root.getAuthority(), root.getPath() + key);
  }

  @Override
  public URI root() {
    return root;
  }

  @Override
  public StorageCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public ReadFile open(String key) throws IOException {
    Path p = path(key);
    FSDataInputStream in;
    long length;
    try {
      if (fs instanceof DistributedFileSystem) {
        // HDFS knows the length from the open call itself.
        in = fs.open(p);
        length = ((HdfsDataInputStream) in).getVisibleLength();
      } else {
        org.apache.hadoop.fs.FileStatus status = fs.getFileStatus(p);
        length = status.getLen();
        in = openObject(p, status);
      }
    } catch (IOException e) {
      throw translate(e, key);
    }
    return new HadoopReadFile(
        key, p, in, length, in.hasCapability(StreamCapabilities.PREADBYTEBUFFER));
  }

  /**
   * With the length known, an object store opens without a HEAD: S3A builds the file's status from
   * {@code fs.option.openfile.length}, and the first positional read is the first GET. HDFS learns
   * the length from its open call anyway.
   */
  @Override
  public ReadFile open(String key, long length) throws IOException {
    if (fs instanceof DistributedFileSystem) {
      return open(key);
    }
    Path p = path(key);
    FSDataInputStream in;
    try {
      in =
          org.apache.hadoop.util.functional.FutureIO.awaitFuture(
              fs.openFile(p)
                  .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, length)
                  .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, "random")
                  .build());
    } catch (IOException e) {
      throw translate(e, key);
    }
    return new HadoopReadFile(
        key, p, in, length, in.hasCapability(StreamCapabilities.PREADBYTEBUFFER));
  }

  /** What {@link #readIfExists} asks for in its one GET; a larger file is read as any other. */
  static final int FIRST_READ = 1 << 20;

  /**
   * On an object store one GET for a file of at most {@link #FIRST_READ} bytes: the open declares
   * one byte more, so S3A sends no HEAD and asks for that range in one request, which the store
   * answers with the whole (shorter) object, or 404 when the key is missing. A larger file is read
   * with a HEAD and GETs: declaring the whole allowed size instead would let the stream prefetch a
   * range that long. HDFS opens and reads as {@link Storage#readIfExists} does.
   */
  @Override
  public Optional<byte[]> readIfExists(String key, long max) throws IOException {
    if (fs instanceof DistributedFileSystem) {
      return Storage.super.readIfExists(key, max);
    }
    Path p = path(key);
    int first = (int) Math.min(max, FIRST_READ);
    try (FSDataInputStream in =
        org.apache.hadoop.util.functional.FutureIO.awaitFuture(
            fs.openFile(p)
                .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, first + 1L)
                .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, "whole-file")
                .build())) {
      byte[] bytes = in.readNBytes(first + 1);
      if (bytes.length > first) {
        return Storage.super.readIfExists(key, max);
      }
      return Optional.of(bytes);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      IOException t = translate(e, key);
      if (t instanceof NoSuchFileException) {
        return Optional.empty();
      }
      throw t;
    }
  }

  /**
   * Opens with the stat already made, so an object store does not ask again (one HEAD on S3); reads
   * are positional, segment footers first, hence the random read policy.
   */
  private FSDataInputStream openObject(Path p, org.apache.hadoop.fs.FileStatus status)
      throws IOException {
    return org.apache.hadoop.util.functional.FutureIO.awaitFuture(
        fs.openFile(p)
            .withFileStatus(status)
            .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, "random")
            .build());
  }

  private final class HadoopReadFile implements ReadFile {
    private final String key;
    private final Path path;
    private final long length;
    private final boolean byteBuffers;
    private FSDataInputStream in;
    private boolean read;

    HadoopReadFile(String key, Path path, FSDataInputStream in, long length, boolean byteBuffers) {
      this.key = key;
      this.path = path;
      this.in = in;
      this.length = length;
      this.byteBuffers = byteBuffers;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      if (position >= length) {
        return -1;
      }
      if (!dst.hasRemaining()) {
        return 0;
      }
      return readFully(dst, position);
    }

    @Override
    public int readFully(ByteBuffer dst, long position) throws IOException {
      int n = (int) Math.max(0, Math.min(dst.remaining(), length - position));
      if (n == 0) {
        return 0;
      }
      for (int attempt = 1; ; attempt++) {
        try {
          readInto(dst, position, n);
          break;
        } catch (IOException e) {
          // Replaced again before this GET: a writer replacing a small file (the hint) many times
          // a second may win several times in a row, so the reopens back off.
          if (read
              || fs instanceof DistributedFileSystem
              || (attempt > 1 && !changed(e))
              || attempt == REOPENS) {
            throw translate(e, key);
          }
          if (attempt > 1) {
            backOff(attempt, e);
          }
          if (!reopen()) {
            throw translate(e, key);
          }
        }
      }
      read = true;
      dst.position(dst.position() + n);
      return n;
    }

    private void readInto(ByteBuffer dst, long position, int n) throws IOException {
      if (byteBuffers) {
        in.readFully(position, dst.slice(dst.position(), n));
      } else if (dst.hasArray()) {
        in.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), n);
      } else {
        byte[] bytes = new byte[n];
        in.readFully(position, bytes, 0, n);
        dst.duplicate().put(bytes);
      }
    }

    /** How many times a read opens an object replaced before its first byte was read. */
    private static final int REOPENS = 8;

    private static void backOff(int attempt, IOException e) throws IOException {
      try {
        Thread.sleep(Math.min(200, 10L << attempt));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw (IOException) new java.io.InterruptedIOException("interrupted").initCause(e);
      }
    }

    /** S3A's failure of a GET whose object changed since the HEAD (its ETag differs). */
    private static boolean changed(IOException e) {
      return e.getClass().getName().equals("org.apache.hadoop.fs.s3a.RemoteFileChangedException");
    }

    /**
     * An object replaced between the open's HEAD and the first GET fails that GET (S3A sends the
     * HEAD's ETag with it): opens the new object, which is whole, if it has the length this file
     * was opened with; false otherwise. Once bytes were read, a change is a failure, never a mix.
     */
    private boolean reopen() {
      try {
        org.apache.hadoop.fs.FileStatus status = fs.getFileStatus(path);
        if (status.getLen() != length) {
          return false;
        }
        FSDataInputStream fresh = openObject(path, status);
        try {
          in.close();
        } catch (IOException ignored) {
          // the failed stream
        }
        in = fresh;
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  @Override
  public OutputStream create(String key) throws IOException {
    try {
      return new SyncedOutput(key, fs.createFile(path(key)).overwrite(false).recursive().build());
    } catch (IOException e) {
      throw translate(e, key);
    }
  }

  /**
   * Durable on close: hsync makes the DataNodes write the last block to disk; an object store's PUT
   * at close is.
   */
  private final class SyncedOutput extends OutputStream {
    private final String key;
    private final FSDataOutputStream out;
    private boolean closed;

    SyncedOutput(String key, FSDataOutputStream out) {
      this.key = key;
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        throw translate(e, key);
      }
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        // An object store has no hsync: its object is durable once the PUT at close returns.
        if (out.hasCapability(StreamCapabilities.HSYNC)) {
          out.hsync();
        }
      } catch (IOException e) {
        try {
          out.close();
        } catch (IOException again) {
          // HDFS rethrows the failure of a block's write on close: the same exception again.
          if (again != e) {
            e.addSuppressed(again);
          }
        }
        throw translate(e, key);
      }
      try {
        out.close();
      } catch (IOException e) {
        throw translate(e, key);
      }
    }
  }

  @Override
  public void createExclusive(String key, byte[] content) throws IOException {
    if (conditionalPut) {
      put(key, content, false);
    } else {
      publish(key, content, Options.Rename.NONE);
    }
  }

  @Override
  public void replace(String key, byte[] content) throws IOException {
    if (conditionalPut) {
      put(key, content, true);
    } else {
      publish(key, content, Options.Rename.OVERWRITE);
    }
  }

  /**
   * One PUT of the whole object, which readers see whole or not at all. Without {@code overwrite}
   * it is conditional ({@code If-None-Match: *}, docs/format.md "Storage backends"): S3A skips its
   * HEAD and LIST probes and the store refuses the PUT when the key exists, so of racing creators
   * exactly one wins. A plain {@code overwrite(false)} would only probe before the PUT, which two
   * racers can both pass.
   */
  private void put(String key, byte[] content, boolean overwrite) throws IOException {
    Path p = path(key);
    try {
      var builder = fs.createFile(p).overwrite(overwrite).recursive();
      if (overwrite) {
        // S3A's option to skip its LIST for a folder at the key: Mosaic puts no file where a
        // folder is, and the PUT alone replaces the object atomically.
        builder.opt("fs.s3a.create.performance", true);
      } else {
        builder.must(Options.CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE, true);
      }
      try (FSDataOutputStream out = builder.build()) {
        out.write(content);
      }
    } catch (IOException e) {
      if (!overwrite && preconditionFailed(e)) {
        throw withCause(new java.nio.file.FileAlreadyExistsException(root + key), e);
      }
      throw translate(e, key);
    }
  }

  /**
   * A conditional PUT that lost to another writer: the store's 412 Precondition Failed (the key
   * exists; S3 Express answers 200 with code PreconditionFailed), which S3A 3.5 reports as its
   * RemoteFileChangedException, and AWS's 409 ConditionalRequestConflict (another conditional write
   * of the key was in flight), which S3A's translateException turns into an AWSBadRequestException
   * whose cause carries the status. Both are a lost race: the caller reads the latest version and
   * tries again, and nothing was written. The classes are hadoop-aws's and the AWS SDK's, which
   * Mosaic's core does not compile against, so they are matched by name.
   */
  static boolean preconditionFailed(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getClass().getName().equals("org.apache.hadoop.fs.s3a.RemoteFileChangedException")
          || t instanceof FileAlreadyExistsException
          || awsStatus(t) == 412
          || awsStatus(t) == 409 && "ConditionalRequestConflict".equals(awsErrorCode(t))) {
        return true;
      }
    }
    return false;
  }

  /** The HTTP status of an AWS SDK service exception, else -1. */
  private static int awsStatus(Throwable t) {
    if (!isAwsServiceException(t)) {
      return -1;
    }
    try {
      return (int) t.getClass().getMethod("statusCode").invoke(t);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }

  /** The error code of an AWS SDK service exception ({@code InvalidObjectState}, ...), or null. */
  static String awsErrorCode(Throwable t) {
    if (!isAwsServiceException(t)) {
      return null;
    }
    try {
      Object details = t.getClass().getMethod("awsErrorDetails").invoke(t);
      return details == null
          ? null
          : (String) details.getClass().getMethod("errorCode").invoke(details);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static boolean isAwsServiceException(Throwable t) {
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals("software.amazon.awssdk.awscore.exception.AwsServiceException")) {
        return true;
      }
    }
    return false;
  }

  /** Writes a temporary file beside {@code key}, then renames it there in one NameNode step. */
  private void publish(String key, byte[] content, Options.Rename mode) throws IOException {
    Path target = path(key);
    String tmpKey =
        StorageKeys.join(
            StorageKeys.parent(key), LocalStorage.TEMPORARY_PREFIX + UUID.randomUUID());
    Path tmp = path(tmpKey);
    try {
      try (OutputStream out = create(tmpKey)) {
        out.write(content);
      }
      if (fs instanceof DistributedFileSystem dfs) {
        dfs.rename(tmp, target, mode);
      } else {
        fileContext().rename(tmp, target, mode);
      }
    } catch (IOException | RuntimeException e) {
      try {
        fs.delete(tmp, false);
      } catch (IOException | RuntimeException d) {
        e.addSuppressed(d);
      }
      if (e instanceof IOException io) {
        throw translate(io, key);
      }
      throw e;
    }
  }

  private synchronized FileContext fileContext() throws IOException {
    if (context == null) {
      context = FileContext.getFileContext(fs.getUri(), conf);
    }
    return context;
  }

  @Override
  public Optional<FileStatus> stat(String key) throws IOException {
    try {
      return Optional.of(status(key, fs.getFileStatus(path(key))));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw translate(e, key);
    }
  }

  /** One HEAD on S3A, where {@link #stat} also lists the prefix to find a folder. */
  @Override
  @SuppressWarnings("deprecation") // the one FileSystem call that S3A answers with a HEAD alone
  public boolean isFile(String key) throws IOException {
    try {
      return fs.isFile(path(key));
    } catch (IOException e) {
      throw translate(e, key);
    }
  }

  private FileStatus status(String key, org.apache.hadoop.fs.FileStatus s) {
    return new FileStatus(
        key,
        key.isEmpty() ? rootPath.getName() : StorageKeys.name(key),
        s.isDirectory(),
        s.isDirectory() ? 0 : s.getLen(),
        s.getModificationTime());
  }

  @Override
  public List<FileStatus> list(String prefix) throws IOException {
    Path dir = path(prefix);
    org.apache.hadoop.fs.FileStatus[] children;
    try {
      children = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw translate(e, prefix);
    }
    List<FileStatus> found = new ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus child : children) {
      // Hadoop lists a file as itself; a file has no children.
      if (!child.isDirectory() && children.length == 1 && isSelf(child.getPath(), dir)) {
        return List.of();
      }
      found.add(status(StorageKeys.join(prefix, child.getPath().getName()), child));
    }
    found.sort(Comparator.comparing(FileStatus::name));
    return found;
  }

  private static boolean isSelf(Path child, Path dir) {
    return child.toUri().getPath().equals(dir.toUri().getPath());
  }

  @Override
  public boolean delete(String key) throws IOException {
    try {
      return fs.delete(path(key), false);
    } catch (IOException e) {
      throw translate(e, key);
    }
  }

  /** One recursive delete: a single NameNode call on HDFS. */
  @Override
  public boolean deleteTree(String prefix) throws IOException {
    try {
      return fs.delete(path(prefix), true);
    } catch (IOException e) {
      throw translate(e, prefix);
    }
  }

  @Override
  public void setPlacement(String folder, String policy) throws IOException {
    if (!capabilities.placement()) {
      Storage.super.setPlacement(folder, policy);
    }
    Path p = path(folder);
    try {
      Collection<? extends BlockStoragePolicySpi> all = fs.getAllStoragePolicies();
      String name =
          all.stream()
              .map(BlockStoragePolicySpi::getName)
              .filter(n -> n.equalsIgnoreCase(policy))
              .findFirst()
              .orElseThrow(
                  () ->
                      MosaicException.invalid(
                          "storage policy '"
                              + policy
                              + "' does not exist on "
                              + root
                              + "; use one of "
                              + all.stream().map(BlockStoragePolicySpi::getName).toList()));
      fs.mkdirs(p);
      fs.setStoragePolicy(p, name);
    } catch (IOException e) {
      throw translate(e, folder);
    }
  }

  @Override
  public List<List<String>> blockStorageTypes(String key) throws IOException {
    if (!capabilities.placement()) {
      return Storage.super.blockStorageTypes(key);
    }
    List<List<String>> types = new ArrayList<>();
    for (BlockLocation block : blocks(key, false)) {
      types.add(Arrays.stream(block.getStorageTypes()).map(StorageType::name).toList());
    }
    return types;
  }

  @Override
  public List<String> hosts(String key) throws IOException {
    BlockLocation[] blocks = blocks(key, true);
    return blocks.length == 0 ? List.of() : List.of(blocks[0].getHosts());
  }

  @Override
  public List<BlockHosts> blockHosts(String key) throws IOException {
    BlockLocation[] blocks;
    try {
      // By path: on HDFS one getBlockLocations call, with no stat before it.
      blocks = fs.getFileBlockLocations(path(key), 0, Long.MAX_VALUE);
    } catch (IOException e) {
      throw translate(e, key);
    }
    List<BlockHosts> result = new ArrayList<>();
    for (BlockLocation block : blocks) {
      result.add(new BlockHosts(block.getOffset(), block.getLength(), List.of(block.getHosts())));
    }
    return result;
  }

  private BlockLocation[] blocks(String key, boolean firstOnly) throws IOException {
    try {
      org.apache.hadoop.fs.FileStatus s = fs.getFileStatus(path(key));
      return fs.getFileBlockLocations(s, 0, firstOnly ? Math.min(1, s.getLen()) : s.getLen());
    } catch (IOException e) {
      throw translate(e, key);
    }
  }

  /**
   * The tightest of the folder's own quotas, in bytes of files: the space quota, and the quota of
   * each storage type its policy places replicas on, each divided by the replicas it counts (HDFS
   * charges quotas per replica). Quotas of the folder's parents are not consulted.
   */
  @Override
  public Optional<Long> quota(String folder) throws IOException {
    Path p = path(folder);
    try {
      QuotaUsage usage = fs.getQuotaUsage(p);
      int replication = fs.getDefaultReplication(p);
      long limit = Long.MAX_VALUE;
      if (usage.getSpaceQuota() >= 0) {
        limit = usage.getSpaceQuota() / replication;
      }
      if (usage.isTypeQuotaSet()) {
        for (Map.Entry<StorageType, Integer> e :
            replicasByType(fs.getStoragePolicy(p), replication).entrySet()) {
          long typeQuota = usage.getTypeQuota(e.getKey());
          if (typeQuota >= 0) {
            limit = Math.min(limit, typeQuota / e.getValue());
          }
        }
      }
      return limit == Long.MAX_VALUE ? Optional.empty() : Optional.of(limit);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw translate(e, folder);
    }
  }

  /** How many of a block's replicas a policy puts on each type: the last type repeats (HDFS). */
  private static Map<StorageType, Integer> replicasByType(
      BlockStoragePolicySpi policy, int replication) {
    StorageType[] types = policy.getStorageTypes();
    Map<StorageType, Integer> counts = new EnumMap<>(StorageType.class);
    for (int i = 0; i < replication && types.length > 0; i++) {
      counts.merge(types[Math.min(i, types.length - 1)], 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Hadoop's exceptions as the JDK's that {@link Storage} promises, and the failures a person fixes
   * outside Mosaic with what to fix: an unreachable file system, and a quota that is full (reported
   * as a local full quota is, so {@link MosaicException#io} names it).
   */
  private IOException translate(IOException e, String key) {
    String where = root + key;
    if (e instanceof FileAlreadyExistsException) {
      return withCause(new java.nio.file.FileAlreadyExistsException(where), e);
    }
    if (e instanceof FileNotFoundException) {
      return withCause(new NoSuchFileException(where), e);
    }
    if (e instanceof PathIsNotEmptyDirectoryException) {
      return withCause(new DirectoryNotEmptyException(where), e);
    }
    if (e instanceof QuotaExceededException) {
      return withCause(
          new FileSystemException(where, null, "Disk quota exceeded (" + e.getMessage() + ")"), e);
    }
    if (isS3(root)) {
      String bucket = root.getAuthority();
      if (e.getClass().getName().equals("org.apache.hadoop.fs.s3a.UnknownStoreException")) {
        throw new MosaicException(
            MosaicException.Kind.NOT_FOUND,
            "bucket '"
                + bucket
                + "' of "
                + where
                + " does not exist at the S3 endpoint (fs.s3a.endpoint "
                + endpoint()
                + "); create the bucket, or fix the bucket in the URI or the endpoint",
            e);
      }
      if (e instanceof java.nio.file.AccessDeniedException && S3StorageClasses.isArchivedRead(e)) {
        throw S3StorageClasses.archivedRead(where, e);
      }
      if (e instanceof java.nio.file.AccessDeniedException) {
        throw new MosaicException(
            MosaicException.Kind.IO,
            "S3 refused access to "
                + where
                + " ("
                + e.getMessage()
                + "); check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the"
                + " environment, or fs.s3a.access.key and fs.s3a.secret.key in the Hadoop"
                + " configuration, never in Mosaic's files) and that they may read and write"
                + " bucket '"
                + bucket
                + "'",
            e);
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException
          || t instanceof UnknownHostException) {
        throw unreachable(root, e, endpoint());
      }
    }
    return e;
  }

  /** The S3 endpoint S3A calls for this root, or "the AWS default" when none is set. */
  private String endpoint() {
    String bucketKey = "fs.s3a.bucket." + root.getAuthority() + ".endpoint";
    String endpoint = conf.getTrimmed(bucketKey, conf.getTrimmed("fs.s3a.endpoint", ""));
    return endpoint.isEmpty() ? "the AWS default" : endpoint;
  }

  static boolean isS3(URI root) {
    return "s3a".equals(root.getScheme()) || "s3".equals(root.getScheme());
  }

  static MosaicException unreachable(URI root, Throwable cause) {
    return unreachable(root, cause, null);
  }

  static MosaicException unreachable(URI root, Throwable cause, String endpoint) {
    if (isS3(root)) {
      return new MosaicException(
          MosaicException.Kind.IO,
          "the S3 endpoint of "
              + root
              + " ("
              + endpoint
              + ") is unreachable ("
              + cause.getClass().getSimpleName()
              + "); check fs.s3a.endpoint in the Hadoop configuration, that the S3 server there"
              + " runs, and that this host reaches it (fs.s3a.attempts.maximum, fs.s3a.retry.limit"
              + " and fs.s3a.connection.establish.timeout set how long Mosaic waits)",
          cause);
    }
    return new MosaicException(
        MosaicException.Kind.IO,
        "the "
            + root.getScheme()
            + " file system of "
            + root
            + " is unreachable ("
            + cause.getClass().getSimpleName()
            + "); check the host and port in the URI, that the NameNode there and its DataNodes"
            + " run, and that this host reaches them (ipc.client.connect.max.retries and"
            + " ipc.client.connect.timeout set how long Mosaic waits)",
        cause);
  }

  private static IOException withCause(IOException e, Throwable cause) {
    e.initCause(cause);
    return e;
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }

  @Override
  public String toString() {
    return root.toString();
  }
}

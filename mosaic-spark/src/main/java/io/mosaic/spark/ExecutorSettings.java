package io.mosaic.spark;

import io.mosaic.scan.Retriever;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;

/**
 * What an executor's retriever is sized by. They are application settings ({@code --conf} or the
 * session builder), like {@code spark.executor.memory}: each executor JVM builds its retriever on
 * its first Mosaic read and keeps it, so a session conf set later cannot resize it.
 */
record ExecutorSettings(int decodeThreads, long vectorPoolBytes, long sharedBufferBytes) {
  static final String DECODE_THREADS = SparkSetting.DECODE_THREADS.confKey();
  static final String VECTOR_POOL_MEMORY = SparkSetting.VECTOR_POOL_MEMORY.confKey();
  static final String SHARED_BUFFER_MEMORY = SparkSetting.SHARED_BUFFER_MEMORY.confKey();

  /** This JVM's settings: the executor's (or, in local mode, the application's) conf. */
  static ExecutorSettings current() {
    SparkEnv env = SparkEnv.get();
    return from(env == null ? new SparkConf(false) : env.conf());
  }

  static ExecutorSettings from(SparkConf conf) {
    int threads = Runtime.getRuntime().availableProcessors();
    if (conf.contains(DECODE_THREADS)) {
      String value = conf.get(DECODE_THREADS);
      try {
        threads = Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        threads = 0;
      }
      if (threads < 1) {
        throw new IllegalArgumentException(
            DECODE_THREADS + " = '" + value + "': give a whole number of threads, at least 1");
      }
    }
    long bytes = Retriever.DEFAULT_POOLED_VECTOR_BYTES;
    if (conf.contains(VECTOR_POOL_MEMORY)) {
      String value = conf.get(VECTOR_POOL_MEMORY);
      try {
        // Spark's own size syntax (as spark.executor.memory): 512m, 1g; a bare number is bytes.
        bytes = conf.getSizeAsBytes(VECTOR_POOL_MEMORY);
      } catch (NumberFormatException e) {
        bytes = -1;
      }
      if (bytes < 0) {
        throw new IllegalArgumentException(
            VECTOR_POOL_MEMORY
                + " = '"
                + value
                + "': give a size such as 256m or 1g (a bare number is bytes; 0 keeps none)");
      }
    }
    long shared = defaultSharedBufferBytes();
    if (conf.contains(SHARED_BUFFER_MEMORY)) {
      String value = conf.get(SHARED_BUFFER_MEMORY);
      try {
        shared = conf.getSizeAsBytes(SHARED_BUFFER_MEMORY);
      } catch (NumberFormatException e) {
        shared = -1;
      }
      if (shared <= 0) {
        throw new IllegalArgumentException(
            SHARED_BUFFER_MEMORY
                + " = '"
                + value
                + "': give a size above 0 such as 256m or 1g (a bare number is bytes)");
      }
    }
    return new ExecutorSettings(threads, bytes, shared);
  }

  /**
   * The shared scan buffer's chunks are on the heap, and reads share it by default (relevance): a
   * small executor (Spark's default 1g) gives it an eighth of its heap rather than 256 MB.
   */
  static long defaultSharedBufferBytes() {
    return Math.min(Retriever.DEFAULT_SHARED_BUFFER_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }
}

package io.mosaic.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;

/**
 * What an executor's retriever is sized by, as {@link MosaicSparkConf#executor} resolved them from
 * the application conf ({@code --conf} or the session builder, like {@code spark.executor.memory}).
 */
record ExecutorSettings(int decodeThreads, long vectorPoolBytes, long sharedBufferBytes) {
  static final String VECTOR_POOL_MEMORY = SparkSetting.VECTOR_POOL_MEMORY.confKey();

  /** This JVM's settings: the executor's (or, in local mode, the application's) conf. */
  static ExecutorSettings current() {
    SparkEnv env = SparkEnv.get();
    return from(env == null ? new SparkConf(false) : env.conf());
  }

  static ExecutorSettings from(SparkConf conf) {
    return MosaicSparkConf.executor(conf);
  }

  static long defaultSharedBufferBytes() {
    return MosaicSparkConf.defaultSharedBufferBytes();
  }
}

package io.mosaic.spark;

import org.apache.spark.SparkConf;

/**
 * What an executor's retriever is sized by, as {@link MosaicSparkConf#executor} resolved them from
 * the application conf ({@code --conf} or the session builder, like {@code spark.executor.memory}).
 */
record ExecutorSettings(int decodeThreads, long vectorPoolBytes, long sharedBufferBytes) {
  static final String VECTOR_POOL_MEMORY = SparkSetting.VECTOR_POOL_MEMORY.confKey();

  /** As {@link MosaicSparkConf#executor(SparkConf)}. */
  static ExecutorSettings from(SparkConf conf) {
    return MosaicSparkConf.executor(conf);
  }

  /** As {@link MosaicSparkConf#defaultSharedBufferBytes()}. */
  static long defaultSharedBufferBytes() {
    return MosaicSparkConf.defaultSharedBufferBytes();
  }
}

package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.storage.SeaweedS3;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock-free table whose metadata and segments are on S3 (SeaweedFS through S3A), named by its
 * {@code s3://} URI, with devices of a storage class: the S3 requests of a commit, of finding the
 * latest version and of a scan, counted by S3A and printed for docs/format.md ("Storage backends"),
 * and bounded: a commit takes at most 3 requests, finding the latest lists nothing, and a scan
 * writes nothing.
 */
class S3TableRequestsTest {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  @TempDir Path dir;

  @Test
  void aCommitTakesAtMostThreeRequestsAndReadsNeitherListNorPut() throws IOException {
    String folder = "pool-" + System.nanoTime();
    String toml =
        """
        [[device]]
        id = "hot"
        uri = "s3://%1$s/%2$s/hot"
        storage_class = "STANDARD"
        capacity = "4 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "2 ct"

        [[device]]
        id = "warm"
        uri = "s3://%1$s/%2$s/warm"
        storage_class = "STANDARD_IA"
        capacity = "8 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        """
            .formatted(SeaweedS3.BUCKET, folder);
    Path file = dir.resolve("devices.toml");
    Files.writeString(file, toml);
    DevicePool pool = DevicePool.load(file, S3.conf());
    String location = "s3://" + SeaweedS3.BUCKET + "/" + folder + "/tables/orders";
    Map<String, String> props = new java.util.HashMap<>();
    for (int i = 0; i < LockFreeTableContract.SCHEMA.columns().size(); i++) {
      props.put(
          "column." + LockFreeTableContract.SCHEMA.columns().get(i).name() + ".device",
          i % 2 == 0 ? "hot" : "warm");
    }
    MosaicTable table = MosaicTable.create(location, pool, LockFreeTableContract.SCHEMA, props);
    List<List<Object>> rows = LockFreeTableContract.rows(0.001);
    TableFixtures.appendRows(table, LockFreeTableContract.SCHEMA, rows);

    List<Storage> all = new ArrayList<>();
    all.add(pool.storages().shared(URI.create(location)));
    for (Device d : pool.devices()) {
      all.add(d.storage());
    }
    // A process that has not read the table: the hint, the name after it (404), the manifest.
    MosaicTable[] fresh = new MosaicTable[1];
    Map<String, Long> open = requestsOf(all, () -> fresh[0] = MosaicTable.open(location, pool));
    Map<String, Long> latest = requestsOf(all, table::latest);
    Map<String, Long> commit = requestsOf(all, () -> table.commit("noop", m -> m));
    MosaicTable reopened = MosaicTable.open(location, pool);
    List<List<Object>> scanned = new ArrayList<>();
    Map<String, Long> scan = requestsOf(all, () -> scanned.addAll(scan(pool, reopened, false)));
    Map<String, Long> recorded = requestsOf(all, () -> scan(pool, reopened, true));
    // A predicate that page pruning tests against each segment's page index: the indexes of a
    // segment come in one GET, not one per field parquet-java parses (hundreds per segment).
    MosaicTable pruned = MosaicTable.open(location, pool);
    int segments = pruned.latest().segments().size();
    Map<String, Long> indexed =
        requestsOf(
            all,
            () -> {
              try (io.mosaic.scan.Retriever retriever = new io.mosaic.scan.Retriever(pool);
                  io.mosaic.scan.Scan s =
                      retriever.scan(
                          pruned,
                          io.mosaic.scan.ScanRequest.of(pruned.latest().schema().names())
                              .where(
                                  io.mosaic.scan.Predicate.of(
                                      io.mosaic.scan.Predicate.ge("o_orderkey", 0L)))
                              .recorded(false))) {
                while (s.hasNext()) {
                  s.next().close();
                }
              }
            });
    assertThat(indexed.getOrDefault("action_http_get_request", 0L))
        .as("GETs of a scan that reads page indexes, against %s of the same scan without", scan)
        .isLessThanOrEqualTo(scan.getOrDefault("action_http_get_request", 0L) + segments);
    System.out.println(
        "S3 requests of opening the table in a new process (finds the latest version): "
            + open
            + "; of finding the latest version again: "
            + latest
            + "; of a commit (which finds its base first): "
            + commit
            + "; of a scan of "
            + scanned.size()
            + " rows: "
            + scan
            + "; of the same scan recorded in the trace: "
            + recorded);

    assertThat(scanned).hasSameSizeAs(rows);
    assertThat(open).doesNotContainKeys("object_list_request", "object_put_request");
    assertThat(latest).doesNotContainKeys("object_list_request", "object_put_request");
    // Finding the latest from a version read within the tombstone retention: one GET (404).
    assertThat(latest.getOrDefault("audit_request_execution", 0L)).isLessThanOrEqualTo(1);
    // A commit on the version this table read last: one conditional PUT, at most 3 in all
    // (docs/format.md, "Commits without POSIX locks", what a commit costs).
    assertThat(commit).containsEntry("object_put_request", 1L);
    assertThat(commit).doesNotContainKey("object_list_request");
    assertThat(commit.getOrDefault("audit_request_execution", 0L)).isBetween(1L, 3L);
    assertThat(scan).doesNotContainKeys("object_put_request", "object_metadata_request");
    // A recorded scan writes its trace record, one object, and nothing else.
    assertThat(recorded).containsEntry("object_put_request", 1L);
    assertThat(table.latest().version()).isEqualTo(3);
    // A gc pass reads each version name once and takes the names' times from its one listing,
    // not from a HEAD per name (docs/format.md, "Commits without POSIX locks"): 20 more versions
    // within the retention add their 20 GETs to a pass, and no HEADs.
    var gc = new io.mosaic.maintenance.GarbageCollector(table);
    Map<String, Long> fewNames = requestsOf(all, () -> gc.collect(java.time.Duration.ZERO));
    for (int i = 0; i < 20; i++) {
      table.commit("noop", m -> m);
    }
    Map<String, Long> manyNames = requestsOf(all, () -> gc.collect(java.time.Duration.ZERO));
    System.out.println(
        "S3 requests of a gc pass over 3 version names: " + fewNames + "; over 23: " + manyNames);
    assertThat(
            manyNames.getOrDefault("object_metadata_request", 0L)
                - fewNames.getOrDefault("object_metadata_request", 0L))
        .isLessThan(10);
    assertThat(
            manyNames.getOrDefault("action_http_get_request", 0L)
                - fewNames.getOrDefault("action_http_get_request", 0L))
        .isBetween(20L, 25L);
    // Each device wrote its objects in its class; SeaweedFS keeps the class as the object's.
    for (Device d : pool.devices()) {
      var fs = ((io.mosaic.storage.HadoopStorage) d.storage()).fileSystem();
      assertThat(fs.getConf().get("fs.s3a.create.storage.class"))
          .isEqualTo(d.spec().storageClass().orElseThrow());
    }
  }

  private static List<List<Object>> scan(DevicePool pool, MosaicTable table, boolean record) {
    List<List<Object>> rows = new ArrayList<>();
    try (io.mosaic.scan.Retriever retriever = new io.mosaic.scan.Retriever(pool);
        io.mosaic.scan.Scan scan =
            retriever.scan(
                table,
                io.mosaic.scan.ScanRequest.of(table.latest().schema().names()).recorded(record))) {
      while (scan.hasNext()) {
        rows.addAll(TableFixtures.values(scan.next()));
      }
    }
    return rows;
  }

  private static Map<String, Long> requestsOf(List<Storage> storages, Work work)
      throws IOException {
    List<Map<String, Long>> before = new ArrayList<>();
    for (Storage s : storages) {
      before.add(SeaweedS3.allRequests(s));
    }
    work.run();
    Map<String, Long> made = new TreeMap<>();
    for (int i = 0; i < storages.size(); i++) {
      Map<String, Long> was = before.get(i);
      SeaweedS3.allRequests(storages.get(i))
          .forEach(
              (k, v) -> {
                long d = v - was.getOrDefault(k, 0L);
                if (d != 0) {
                  made.merge(k, d, Long::sum);
                }
              });
    }
    return made;
  }

  interface Work {
    void run() throws IOException;
  }
}

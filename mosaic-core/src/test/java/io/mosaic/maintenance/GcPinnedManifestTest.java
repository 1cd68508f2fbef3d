package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TestPool;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gc and a pinned version whose manifest it cannot read (docs/format.md, "Pins, writer locks and
 * gc"): an I/O error stops gc before it deletes a file, instead of treating the version as gone.
 */
class GcPinnedManifestTest {
  @TempDir Path dir;

  @Test
  void aPinnedVersionGcCannotReadKeepsItsFilesAndGcSaysWhy() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // v2
    SegmentEntry old = table.latest().segmentsOf("s").get(0);
    Path oldFile = pool.device(old.device()).resolve(old.path());
    try (TablePin pin = table.pin()) {
      long pinned = pin.version();
      Migrator migrator = new Migrator(table);
      migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {});
      assertThat(oldFile).as("kept for the pin").exists();
      // The pinned version's manifest becomes unreadable (a loop of links stands for an I/O
      // error of the metadata device): not a version no reader can be reading.
      Path manifest = table.manifestFile(pinned);
      Path aside = manifest.resolveSibling("aside.json");
      Files.move(manifest, aside);
      Files.createSymbolicLink(manifest, manifest.getFileName());
      assertThatThrownBy(() -> new GarbageCollector(table).collect(Duration.ZERO))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("stopped before deleting any file")
          .hasMessageContaining("cannot read version v" + pinned + ", which a reader has pinned")
          .hasMessageContaining("run gc again");
      assertThat(oldFile).exists();
      Files.delete(manifest);
      Files.move(aside, manifest);
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(oldFile).as("still pinned").exists();
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(oldFile).as("no longer pinned").doesNotExist();
  }
}

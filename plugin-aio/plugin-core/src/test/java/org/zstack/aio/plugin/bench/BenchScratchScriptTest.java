package org.zstack.aio.plugin.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.HostShell;
import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.ShippedFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * conf/aio/host-bench-scratch.sh run for real (through ZStack's here-document where the module sends it so): the room
 * check before a benchmark's first run (real df) and the removal of exactly that benchmark's scratch files after its
 * last, also of a file a run killed with SIGKILL left behind (host-bench.sh with the benchmark's TAG).
 */
class BenchScratchScriptTest {

    private static final String SCRIPT = ShippedFiles.read(ShippedFiles.CONF.resolve("host-bench-scratch.sh"));
    private static final String BENCH = ShippedFiles.read(ShippedFiles.BENCH_SCRIPT);
    private static final String TAG = "0123456789abcdef0123456789abcdef";

    @Test
    void roomIsCheckedWithTheScratchImageAndTheReserveAndNothingIsWritten(@TempDir Path storage, @TempDir Path tmp) throws Exception {
        long freeMiB = Files.getFileStore(storage).getUsableSpace() >> 20;
        MeasureSettings fits = ShippedFiles.measureSettings("bench.reserveMiB", "0");
        HostShell.Result ok = HostShell.zstackRunShell(new BenchScratch(SCRIPT, fits).room(storage.toString()).heredocSafe(), tmp, null);
        assertThat(ok.exit()).isZero();
        BenchScratch.Answer room = BenchScratch.readRoom(ok.stdout(), ok.stderr(), ok.exit());
        assertThat(room.ok()).as(room.sentence()).isTrue();
        assertThat(room.sentence()).matches("the storage has [0-9]+ MiB free; the benchmark needs 64 MiB");

        MeasureSettings full = ShippedFiles.measureSettings("bench.reserveMiB", Long.toString(freeMiB + 10_000));
        HostShell.Result no = HostShell.zstackRunShell(new BenchScratch(SCRIPT, full).room(storage.toString()).heredocSafe(), tmp, null);
        assertThat(no.exit()).isEqualTo(3);
        BenchScratch.Answer refused = BenchScratch.readRoom(no.stdout(), no.stderr(), no.exit());
        assertThat(refused.ok()).isFalse();
        assertThat(refused.sentence()).startsWith(storage + " has ")
                .contains(" MiB free; the benchmark needs " + (freeMiB + 10_000 + 64) + " MiB (a 64 MiB scratch image and "
                          + (freeMiB + 10_000) + " MiB left free), so nothing was run or written.");

        HostShell.Result gone = HostShell.sh(new BenchScratch(SCRIPT, fits).room(storage.resolve("gone").toString()).text(), null);
        BenchScratch.Answer missing = BenchScratch.readRoom(gone.stdout(), gone.stderr(), gone.exit());
        assertThat(missing.ok()).isFalse();
        assertThat(missing.sentence()).isEqualTo(storage.resolve("gone") + " is not a directory on this host: is the primary storage mounted here?");
        try (Stream<Path> s = Files.list(storage)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void cleanRemovesThisBenchmarksScratchFilesAndNoOneElses(@TempDir Path storage, @TempDir Path tmp) throws Exception {
        Path mine1 = Files.writeString(storage.resolve(".aio-bench." + TAG + ".AbC123"), "x");
        Path mine2 = Files.writeString(storage.resolve(".aio-bench." + TAG + ".xyz789"), "x");
        Path otherJob = Files.writeString(storage.resolve(".aio-bench.ffffffffffffffffffffffffffffffff.AbC123"), "x");
        Path untagged = Files.writeString(storage.resolve(".aio-bench.QWE123"), "x");
        Path volume = Files.writeString(storage.resolve("vol-" + TAG + ".qcow2"), "x");
        BenchScratch scratch = new BenchScratch(SCRIPT, ShippedFiles.measureSettings());
        HostShell.Result r = HostShell.zstackRunShell(scratch.clean(storage.toString(), TAG).heredocSafe(), tmp, null);
        assertThat(r.stdout()).isEqualTo("bench-clean removed=2 left=0\n");
        BenchScratch.Answer a = BenchScratch.readClean(r.stdout(), r.stderr(), r.exit());
        assertThat(a.ok()).isTrue();
        assertThat(a.sentence()).isEqualTo("2 scratch file(s) of this benchmark were left and are removed");
        assertThat(mine1).doesNotExist();
        assertThat(mine2).doesNotExist();
        assertThat(otherJob).exists();
        assertThat(untagged).exists();
        assertThat(volume).exists();
        // nothing left: still a clean answer
        HostShell.Result again = HostShell.sh(scratch.clean(storage.toString(), TAG).text(), null);
        assertThat(again.stdout()).isEqualTo("bench-clean removed=0 left=0\n");
        BenchScratch.Answer none = BenchScratch.readClean(again.stdout(), again.stderr(), again.exit());
        assertThat(none.ok()).isTrue();
        assertThat(none.sentence()).isEqualTo("no scratch file of this benchmark was left");
    }

    /** The case the final call exists for: a run killed with SIGKILL has no trap to remove its scratch image. */
    @Test
    void aRunKilledWithSigkillLeavesItsTaggedFileAndCleanRemovesIt(@TempDir Path storage, @TempDir Path bin) throws Exception {
        Path fake = bin.resolve("qemu-img");
        Files.writeString(fake, "#!/bin/sh\ncase \"$1\" in\n  create) eval img=\\${$(($# - 1))}; : > \"$img\" ;;\n  bench) sleep 60 ;;\nesac\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        BenchRun run = new BenchRun(IoMode.THREADS, 1, false, 3);
        MeasureSettings settings = ShippedFiles.measureSettings("bench.reserveMiB", "0");
        String call = new BenchScript(BENCH, settings).forRun(run, storage.toString(), ImageKind.of("qcow2", "full"), TAG).text();
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", call);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process p = pb.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (scratchFiles(storage).isEmpty() && System.nanoTime() < until) Thread.sleep(20);
        List<Path> made = scratchFiles(storage);
        assertThat(made).hasSize(1);
        assertThat(made.get(0).getFileName().toString()).startsWith(".aio-bench." + TAG + ".");
        p.destroyForcibly(); // SIGKILL: no trap runs
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // the sh child holding the fake's sleep may outlive it; the file stays either way
        assertThat(scratchFiles(storage)).as("a SIGKILLed run leaves its file").hasSize(1);
        HostShell.Result r = HostShell.sh(new BenchScratch(SCRIPT, settings).clean(storage.toString(), TAG).text(), null);
        assertThat(r.stdout()).isEqualTo("bench-clean removed=1 left=0\n");
        assertThat(scratchFiles(storage)).isEmpty();
    }

    @Test
    void badArgumentsAndTagsAreRefused(@TempDir Path storage) throws Exception {
        HostScript s = HostScript.of(BenchScratch.RESOURCE, SCRIPT);
        String[][] cases = {
                {"wipe", "the first argument must be room or clean."},
                {"clean", "clean takes DIR TAG, got 1 argument(s)."},
        };
        for (String[] c : cases) {
            HostShell.Result r = HostShell.sh(s.with(c[0], storage.toString()).text(), null);
            assertThat(r.exit()).isEqualTo(2);
            assertThat(BenchScratch.readClean(r.stdout(), r.stderr(), r.exit()).sentence()).isEqualTo(c[1]);
        }
        HostShell.Result glob = HostShell.sh(s.with("clean", storage.toString(), "*").text(), null);
        assertThat(glob.stdout()).isEqualTo("bench-scratch refused=bad-arguments TAG must be 1-32 letters or digits.\n");
        HostShell.Result badTag = HostShell.sh(HostScript.of(BenchScript.RESOURCE, BENCH).with(storage.toString(), "threads", "1", "write",
                "1", "qcow2", "full", "64", "0", "../x").text(), null);
        assertThat(badTag.stdout()).isEqualTo("bench refused=bad-arguments TAG must be 1-32 letters or digits.\n");
        assertThatThrownBy(() -> new BenchScratch(SCRIPT, ShippedFiles.measureSettings()).clean(storage.toString(), "a*"))
                .hasMessage("a benchmark's tag is 1-32 letters or digits: a*");
        assertThat(BenchScratch.readRoom("Last login: today\n", "sh: 1: base64: not found\n", 127).sentence())
                .isEqualTo("the host printed no bench-room line (exit code 127): sh: 1: base64: not found");
    }

    private static List<Path> scratchFiles(Path storage) throws IOException {
        try (Stream<Path> s = Files.list(storage)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".aio-bench.")).toList();
        }
    }
}

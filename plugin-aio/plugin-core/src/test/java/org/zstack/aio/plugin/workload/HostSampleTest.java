package org.zstack.aio.plugin.workload;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.Baseline;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.State;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** host-sample.sh's output (libvirt's own virsh list and domstats --block, as a host prints them) read and folded. */
class HostSampleTest {

    /** A sample as libvirt 9.0 prints it here (backingIndex on the top image too), two domains, a cdrom without source. */
    static String sample(long atSeconds, long id, long rdReqs, long wrReqs, long wrTimesNs) {
        return "sample at=" + atSeconds + "\n"
               + "--- virsh list\n"
               + " Id   Name                               State\n"
               + "--------------------------------------------------\n"
               + " " + id + "    vm-one                             running\n"
               + " 9    vm-two                             running\n"
               + "\n"
               + "--- virsh domstats --block\n"
               + "Domain: 'vm-one'\n"
               + "  block.count=3\n"
               + "  block.0.name=vda\n"
               + "  block.0.path=/zstack_ps/rootVolumes/acct-a/vol-root1/root1.qcow2\n"
               + "  block.0.backingIndex=1\n"
               + "  block.0.rd.reqs=" + rdReqs + "\n"
               + "  block.0.rd.bytes=" + rdReqs * 4096 + "\n"
               + "  block.0.rd.times=" + rdReqs * 100_000 + "\n"
               + "  block.0.wr.reqs=" + wrReqs + "\n"
               + "  block.0.wr.bytes=" + wrReqs * 65536 + "\n"
               + "  block.0.wr.times=" + wrTimesNs + "\n"
               + "  block.0.fl.reqs=0\n"
               + "  block.0.fl.times=0\n"
               + "  block.0.allocation=331776\n"
               + "  block.0.capacity=67108864\n"
               + "  block.0.physical=274432\n"
               + "  block.1.name=hdc\n"
               + "  block.1.rd.reqs=0\n"
               + "  block.1.rd.bytes=0\n"
               + "  block.1.rd.times=0\n"
               + "  block.1.wr.reqs=0\n"
               + "  block.1.wr.bytes=0\n"
               + "  block.1.wr.times=0\n"
               + "  block.2.name=vdb\n"
               + "  block.2.path=/nfs/prim-x/dataVolumes/acct-a/vol-data1/data1.qcow2\n"
               + "  block.2.rd.reqs=5\n"
               + "  block.2.rd.bytes=20480\n"
               + "  block.2.rd.times=7000\n"
               + "  block.2.wr.reqs=0\n"
               + "  block.2.wr.bytes=0\n"
               + "  block.2.wr.times=0\n"
               + "\n"
               + "Domain: 'vm-two'\n"
               + "  block.count=0\n";
    }

    private static final Map<String, String> PATHS = Map.of(
            "/zstack_ps/rootVolumes/acct-a/vol-root1/root1.qcow2", "root1",
            "/elsewhere/data1", "data1"); // data1 by the uuid in its path

    @Test
    void libvirtsOutputIsReadDiskByDiskWithTheDomainsId() {
        HostSample s = HostSample.parse(sample(1_795_772_681L, 4, 100, 50, 9_000_000));
        assertThat(s.failure()).isNull();
        assertThat(s.atMillis()).isEqualTo(1_795_772_681_000L);
        assertThat(s.domains()).extracting(HostSample.Domain::name).containsExactly("vm-one", "vm-two");
        HostSample.Domain one = s.domains().get(0);
        assertThat(one.id()).isEqualTo(4L);
        assertThat(one.disks()).extracting(HostSample.Disk::name).containsExactly("vda", "hdc", "vdb");
        assertThat(one.disks().get(0).counters()).isEqualTo(new Counters(100, 409600, 10_000_000, 50, 50 * 65536, 9_000_000));
        assertThat(one.disks().get(1).path()).isNull();
        assertThat(s.domains().get(1).disks()).isEmpty();
    }

    @Test
    void withBackingImagesOnlyTheDiskItselfCounts() {
        String out = "sample at=10\n--- virsh list\n 3 vm running\n--- virsh domstats --block\nDomain: 'vm'\n"
                     + "  block.count=2\n"
                     + "  block.0.name=vda\n  block.0.path=/top.qcow2\n  block.0.rd.reqs=7\n  block.0.rd.bytes=7\n"
                     + "  block.0.rd.times=7\n  block.0.wr.reqs=7\n  block.0.wr.bytes=7\n  block.0.wr.times=7\n"
                     + "  block.1.name=vda\n  block.1.path=/base.qcow2\n  block.1.backingIndex=1\n  block.1.rd.reqs=99\n"
                     + "  block.1.rd.bytes=99\n  block.1.rd.times=99\n  block.1.wr.reqs=0\n  block.1.wr.bytes=0\n  block.1.wr.times=0\n";
        HostSample.Domain d = HostSample.parse(out).domains().get(0);
        assertThat(d.disks()).hasSize(1);
        assertThat(d.disks().get(0).path()).isEqualTo("/top.qcow2");
        assertThat(d.disks().get(0).counters().rdReqs()).isEqualTo(7);
    }

    @Test
    void badOutputIsAnsweredWithWhyAndFoldsNothing() {
        assertThat(HostSample.parse(null).failure()).isEqualTo("the host printed nothing");
        assertThat(HostSample.parse("sample at=5\n--- virsh list\nsample failed=virsh list did not answer within 5 s or failed.\n").failure())
                .isEqualTo("virsh list did not answer within 5 s or failed.");
        assertThat(HostSample.parse("Last login: today\nDomain: 'x'\n").failure())
                .startsWith("the host's output has no 'sample at=' line: Last login: today");
        HostSample garbled = HostSample.parse(sample(20, 4, 1, 1, 1).replace("block.0.wr.times=1", "block.0.wr.times=lots")
                .replace("  block.2.rd.times=7000\n", ""));
        assertThat(garbled.domains().get(0).disks().get(0).incomplete()).isEqualTo("block.wr.times of vda is 'lots', not a number");
        assertThat(garbled.domains().get(0).disks().get(2).incomplete()).isEqualTo("libvirt printed no block.rd.times for vdb");
        SampleFold f = SampleFold.fold("h1", garbled, SampleFold.byPathOrUuid(PATHS), Map.of(), 3600);
        assertThat(f.states()).isEmpty();
        assertThat(f.skipped()).containsExactly("volume root1 of domain vm-one: block.wr.times of vda is 'lots', not a number",
                "volume data1 of domain vm-one: libvirt printed no block.rd.times for vdb");
        assertThatThrownBy(() -> SampleFold.fold("h1", HostSample.parse(null), SampleFold.byPathOrUuid(PATHS), Map.of(), 3600))
                .hasMessage("no sample to fold: the host printed nothing");
    }

    @Test
    void twoSamplesOfAHostFoldIntoEachVolumesProfileWithTheCoresFold() {
        SampleFold first = SampleFold.fold("h1", HostSample.parse(sample(1000, 4, 100, 50, 0)), SampleFold.byPathOrUuid(PATHS),
                Map.of(), 3600);
        assertThat(first.states().keySet()).containsExactly("root1", "data1");
        assertThat(first.baselines()).containsEntry("root1", Baseline.FIRST).containsEntry("data1", Baseline.FIRST);
        assertThat(first.profiles("t")).isEmpty();
        // 300 s later: 3000 more reads of 4K (0.1 ms each), 9000 more writes of 64K holding 12 s of request time
        Map<String, State> prev = new HashMap<>(first.states());
        SampleFold second = SampleFold.fold("h1", HostSample.parse(sample(1300, 4, 3100, 9050, 12_000_000_000L)),
                SampleFold.byPathOrUuid(PATHS), prev, 3600);
        assertThat(second.baselines()).isEmpty();
        WorkloadProfile root = second.profiles("t").get("root1");
        assertThat(root.readFraction()).isCloseTo(0.25, within(1e-12));
        assertThat(root.avgReadBytes()).isCloseTo(4096, within(1e-9));
        assertThat(root.avgWriteBytes()).isCloseTo(65536, within(1e-9));
        // same as the fold itself on the same deltas
        WorkloadFold.Step direct = WorkloadFold.advance(prev.get("root1"), new Counters(3100, 3100 * 4096, 310_000_000, 9050,
                9050L * 65536, 12_000_000_000L), new WorkloadFold.Origin("h1", 4), 1_300_000, 3600);
        assertThat(second.states().get("root1")).isEqualTo(direct.state());
        assertThat(root.avgQueueDepth()).isCloseTo((0.3 + 12) / 300, within(1e-9));
        assertThat(second.profiles("t")).doesNotContainKey("data1"); // no request since the first sample
        // the VM restarted: a new libvirt id is a new baseline, not a delta
        SampleFold third = SampleFold.fold("h1", HostSample.parse(sample(1600, 5, 3200, 9100, 12_000_000_000L)),
                SampleFold.byPathOrUuid(PATHS), new HashMap<>(second.states()), 3600);
        assertThat(third.baselines()).containsEntry("root1", Baseline.NEW_QEMU);
        assertThat(third.states().get("root1").sums()).isEqualTo(second.states().get("root1").sums());
    }

    @Test
    void aDomainMissingFromTheListIsLeftForTheNextSample() {
        String notListed = sample(1000, 4, 1, 1, 1).replace(" 4    vm-one", " -    vm-one");
        SampleFold f = SampleFold.fold("h1", HostSample.parse(notListed), SampleFold.byPathOrUuid(PATHS), Map.of(), 3600);
        assertThat(f.states()).isEmpty();
        assertThat(f.skipped()).first().asString().isEqualTo("volume root1: domain vm-one was not in virsh list, so which QEMU"
                + " counted is unknown; the next sample takes it");
    }
}

package org.zstack.test.integration.aio

import org.zstack.testlib.EnvSpec
import org.zstack.testlib.Test
import org.zstack.testlib.ZoneSpec
import org.zstack.utils.data.SizeUnit

/**
 * The environments of the plugin-aio cases: one KVM host ("kvm") in "cluster", one primary storage, a flat L3 network
 * ("l3"), and a VM "vm" with a root volume and data volumes of "diskOffering" (10G).
 */
class AioEnvs {
    /** LocalStorage "local", sftp backup storage; the VM has two data volumes. */
    static EnvSpec localStorage() {
        return oneHost("local", 2, { ZoneSpec z ->
            z.localPrimaryStorage {
                name = "local"
                url = "/local_ps"
            }
        }, sftp())
    }

    /** LocalStorage "local" and NFS "nfs" on the one host's cluster, sftp backup storage; the VM (on "local") has two data volumes. */
    static EnvSpec localStorageAndNfs() {
        return oneHost("local", 2, { ZoneSpec z ->
            z.localPrimaryStorage {
                name = "local"
                url = "/local_ps"
            }
            z.nfsPrimaryStorage {
                name = "nfs"
                url = "localhost:/nfs"
            }
        }, sftp(), {}, ["nfs"])
    }

    /** Ceph "ceph-ps" with Ceph backup storage; the VM has one data volume. */
    static EnvSpec ceph() {
        return oneHost("ceph-ps", 1, { ZoneSpec z ->
            z.cephPrimaryStorage {
                name = "ceph-ps"
                totalCapacity = SizeUnit.GIGABYTE.toByte(100)
                availableCapacity = SizeUnit.GIGABYTE.toByte(100)
                url = "ceph://pri"
                fsid = "7ff218d9-f525-435f-8a40-3618d1772a64"
                monUrls = ["root:password@localhost/?monPort=7777"]
            }
        }, { EnvSpec e ->
            e.cephBackupStorage {
                name = "bs"
                totalCapacity = SizeUnit.GIGABYTE.toByte(100)
                availableCapacity = SizeUnit.GIGABYTE.toByte(100)
                url = "/bk"
                fsid = "7ff218d9-f525-435f-8a40-3618d1772a64"
                monUrls = ["root:password@localhost/?monPort=7777"]
                image {
                    name = "image"
                    url = "http://zstack.org/download/image.qcow2"
                }
            }
        })
    }

    /** A shared mount point storage "sblk" (the SharedBlock case retypes it), sftp backup storage; one data volume. */
    static EnvSpec sharedMountPoint() {
        return oneHost("sblk", 1, { ZoneSpec z ->
            z.smpPrimaryStorage {
                name = "sblk"
                url = "/sblk"
            }
        }, sftp())
    }

    /**
     * A shared mount point storage "smp" seen by two hosts, "kvm" (the VM's) and "kvm2" (127.0.0.1: another name of
     * the address the simulator listens on), for live migration; sftp backup storage; one data volume.
     */
    static EnvSpec twoHostsSharedMountPoint() {
        return oneHost("smp", 1, { ZoneSpec z ->
            z.smpPrimaryStorage {
                name = "smp"
                url = "/smp"
            }
        }, sftp(), secondHost())
    }

    /**
     * LocalStorage "local" on two hosts, "kvm" (the VM's) and "kvm2" (127.0.0.1), for live migration with storage; the
     * VM has no data volume (ZStack live-migrates a LocalStorage VM only without data volumes).
     */
    static EnvSpec twoHostsLocalStorage() {
        return oneHost("local", 0, { ZoneSpec z ->
            z.localPrimaryStorage {
                name = "local"
                url = "/local_ps"
            }
        }, sftp(), secondHost())
    }

    /** "kvm2" at 127.0.0.1: another name of the address the simulator listens on */
    private static Closure secondHost() {
        return { c ->
            c.kvm {
                name = "kvm2"
                managementIp = "127.0.0.1"
                username = "root"
                password = "password"
            }
        }
    }

    private static Closure sftp() {
        return { EnvSpec e ->
            e.sftpBackupStorage {
                name = "bs"
                url = "/sftp"
                username = "root"
                password = "password"
                hostname = "localhost"
                image {
                    name = "image"
                    url = "http://zstack.org/download/test.qcow2"
                }
            }
        }
    }

    private static EnvSpec oneHost(String psName, int dataVolumes, Closure primaryStorage, Closure backupStorage,
                                   Closure moreHosts = {}, List<String> morePrimaryStorages = []) {
        return Test.makeEnv {
            instanceOffering {
                name = "instanceOffering"
                memory = SizeUnit.GIGABYTE.toByte(1)
                cpu = 1
            }
            diskOffering {
                name = "diskOffering"
                diskSize = SizeUnit.GIGABYTE.toByte(10)
            }
            backupStorage(delegate)
            zone {
                name = "zone"
                cluster {
                    name = "cluster"
                    hypervisorType = "KVM"
                    kvm {
                        name = "kvm"
                        managementIp = "localhost"
                        username = "root"
                        password = "password"
                    }
                    moreHosts(delegate)
                    attachPrimaryStorage(([psName] + morePrimaryStorages) as String[])
                    attachL2Network("l2")
                }
                primaryStorage(delegate)
                l2NoVlanNetwork {
                    name = "l2"
                    physicalInterface = "eth0"
                    l3Network {
                        name = "l3"
                        ip {
                            startIp = "192.168.100.10"
                            endIp = "192.168.100.100"
                            netmask = "255.255.255.0"
                            gateway = "192.168.100.1"
                        }
                    }
                }
                attachBackupStorage("bs")
            }
            vm {
                name = "vm"
                if (!morePrimaryStorages.isEmpty()) usePrimaryStorage(psName)
                useInstanceOffering("instanceOffering")
                useImage("image")
                useHost("kvm")
                useL3Networks("l3")
                useDiskOfferings((["diskOffering"] * dataVolumes) as String[])
            }
        }
    }
}

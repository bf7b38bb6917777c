package org.zstack.test.integration.aio

import org.zstack.testlib.EnvSpec
import org.zstack.testlib.Test
import org.zstack.utils.data.SizeUnit

/**
 * The real-agent tier's environment: one KVM host "kvm", LocalStorage "local" at a real folder (the images are real
 * files there), a VM "vm" of 128 MiB with three data volumes of "disk" (64 MiB), sftp backup storage, a flat L3 "l3".
 */
class RealAgentEnv {
    static EnvSpec oneVm(String localStorageDir) {
        return Test.makeEnv {
            instanceOffering { name = "small"; memory = SizeUnit.MEGABYTE.toByte(128); cpu = 1 }
            diskOffering { name = "disk"; diskSize = SizeUnit.MEGABYTE.toByte(64) }
            sftpBackupStorage {
                name = "bs"; url = "/sftp"; username = "root"; password = "password"; hostname = "localhost"
                image { name = "image"; url = "http://zstack.org/download/test.qcow2" }
            }
            zone {
                name = "zone"
                cluster {
                    name = "cluster"; hypervisorType = "KVM"
                    kvm { name = "kvm"; managementIp = "localhost"; username = "root"; password = "password" }
                    attachPrimaryStorage("local")
                    attachL2Network("l2")
                }
                localPrimaryStorage { name = "local"; url = localStorageDir }
                l2NoVlanNetwork {
                    name = "l2"; physicalInterface = "eth0"
                    l3Network {
                        name = "l3"
                        ip { startIp = "192.168.100.10"; endIp = "192.168.100.100"; netmask = "255.255.255.0"; gateway = "192.168.100.1" }
                    }
                }
                attachBackupStorage("bs")
            }
            vm {
                name = "vm"; useInstanceOffering("small"); useImage("image"); useHost("kvm"); useL3Networks("l3")
                useDiskOfferings("disk", "disk", "disk")
            }
        }
    }
}

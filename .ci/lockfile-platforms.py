# Re-adds the optional Biome platform binaries that npm drops from package-lock.json when the registry
# mirror lacks them (only the Linux ones are mirrored here); without them `npm ci` refuses the lockfile.
# Run after any `npm install` that rewrites the lockfile: python3 .ci/lockfile-platforms.py
import json,sys
p='package-lock.json'; lock=json.load(open(p))
pk=lock['packages']
plat={'android-arm64':(['android'],['arm64'],None),'android-x64':(['android'],['x64'],None),'darwin-arm64':(['darwin'],['arm64'],None),'darwin-x64':(['darwin'],['x64'],None),'linux-arm64-musl':(['linux'],['arm64'],['musl']),'linux-x64-musl':(['linux'],['x64'],['musl']),'win32-arm64':(['win32'],['arm64'],None),'win32-x64':(['win32'],['x64'],None)}
for k,(os_,cpu,libc) in plat.items():
    key='node_modules/@biomejs/cli-'+k
    if key in pk: continue
    e={'version':'2.6.8','cpu':cpu,'dev':True,'license':'MIT OR Apache-2.0 OR BSD-2-Clause','optional':True,'os':os_,'engines':{'node':'>=14.21.3'}}
    if libc: e['libc']=libc
    pk[key]=e
lock['packages']=dict(sorted(pk.items(), key=lambda kv: (kv[0]!='', kv[0])))
json.dump(lock,open(p,'w'),indent=2); open(p,'a').write('\n')

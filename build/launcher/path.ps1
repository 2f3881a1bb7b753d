# Adds (add) or removes (remove) the folder of the `gatehouse` launcher to or from the user's PATH, run by the
# installer and the uninstaller (build/installer.nsh). The value is read and written in the registry as it is
# stored (unexpanded, REG_EXPAND_SZ), so entries such as %USERPROFILE%\bin are kept as they were; other entries
# and their order are never changed. Running `add` twice leaves one entry.
param(
  [Parameter(Mandatory = $true)][ValidateSet('add', 'remove')][string]$Action,
  [Parameter(Mandatory = $true)][string]$Dir
)
$ErrorActionPreference = 'Stop'
$key = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Environment', $true)
try {
  $current = [string]$key.GetValue('Path', '', [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames)
  $same = { param($entry) $entry.TrimEnd('\') -ieq $Dir.TrimEnd('\') }
  $entries = @($current -split ';' | Where-Object { $_ -ne '' -and -not (& $same $_) })
  if ($Action -eq 'add') { $entries += $Dir }
  $updated = $entries -join ';'
  if ($updated -ne $current) {
    if ($updated -eq '') { $key.DeleteValue('Path', $false) }
    else { $key.SetValue('Path', $updated, [Microsoft.Win32.RegistryValueKind]::ExpandString) }
  }
} finally {
  $key.Close()
}

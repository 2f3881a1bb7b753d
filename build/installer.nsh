; Included by the nsis target (build/electron-builder.yml, nsis.include): puts the `gatehouse` launcher
; (resources\bin\gatehouse.cmd) on the user's PATH, and takes it off again on uninstall. PowerShell edits the
; registry value as stored (build/launcher/path.ps1): NSIS's own string functions would cut a long PATH.
; New terminals see the change (Windows broadcasts it to Explorer); terminals already open do not.

!include WinMessages.nsh

!macro gatehousePath action
  Push $0
  nsExec::Exec '"$SYSDIR\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "$INSTDIR\resources\bin\path.ps1" ${action} "$INSTDIR\resources\bin"'
  Pop $0 ; the exit code: a PATH left as it was is no reason to fail the installation
  Pop $0
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
!macroend

!macro customInstall
  !insertmacro gatehousePath add
!macroend

!macro customUnInstall
  ; An update runs the old uninstaller first: the entry stays, since the same folder is installed again.
  ${ifNot} ${isUpdated}
    !insertmacro gatehousePath remove
  ${endIf}
!macroend
